import Domain
import Foundation
import HTMLReport
import TestSupport
import Testing

/// The report in a real browser: Debian's headless Chromium loads the cohort page and a user's page
/// from disk with JavaScript off, and the test fails on any console error, exception, failed request
/// or request leaving the machine, and on any chart that did not draw. Chromium missing or unable to
/// start fails the test.
///
/// `PIPELINE_REPORT_SCREENSHOTS=DIR` keeps the first screenful of each page there (the README's
/// examples); the full-page screenshots are checked and dropped.
@Suite("Report in a browser", .timeLimit(.minutes(10)))
struct BrowserTests {
    /// For every `svg.chart`: its size on screen and its share of the page's text column, its axes' ticks and
    /// extent, how many marks in the plot area have a non-empty box, and how many pairs of x tick labels overlap
    /// and how many labels stick out of the chart, as the browser laid the text out. Runs in the page through
    /// the DevTools protocol.
    static let chartCheck = """
        Array.from(document.querySelectorAll('svg.chart')).map(svg => {
          const area = e => { if (!e) return 0; const b = e.getBBox(); return b.width * b.height; };
          const plot = svg.querySelector('g.plot');
          const drawn = plot ? Array.from(plot.querySelectorAll('polyline, circle, rect')).filter(e => {
            const b = e.getBBox(); return b.width > 0 || b.height > 0; }).length : 0;
          const box = svg.getBoundingClientRect();
          const style = getComputedStyle(document.body);
          const column = document.body.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          const labels = Array.from(svg.querySelectorAll('g.x-axis g.tick text')).map(t => t.getBoundingClientRect());
          let overlaps = 0;
          for (let i = 0; i < labels.length; i++) for (let j = i + 1; j < labels.length; j++) {
            const a = labels[i], b = labels[j];
            if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) overlaps++;
          }
          const outside = labels.filter(l => l.left < box.left - 0.5 || l.right > box.right + 0.5).length;
          return { id: svg.id, title: (svg.querySelector('title') || {}).textContent || '',
            width: box.width, height: box.height, drawn: drawn, fill: box.width / column,
            fixed: svg.classList.contains('fixed'), labels: labels.length, overlaps: overlaps, outside: outside,
            xTicks: svg.querySelectorAll('g.x-axis g.tick').length, yTicks: svg.querySelectorAll('g.y-axis g.tick').length,
            xAxis: area(svg.querySelector('g.x-axis')), yAxis: area(svg.querySelector('g.y-axis')),
            empty: svg.querySelector('text.empty') !== null };
        })
        """

    /// Runs blocking browser work on its own thread, off Swift's cooperative pool.
    static func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    struct Checked: Sendable {
        var problems: [String]
        var charts: [[String: String]]
        var png: Data
        var viewportPNG: Data
    }

    static func check(_ url: URL, width: Int, javaScript: Bool = false) async throws -> Checked {
        try await onOwnThread {
            let browser = try HeadlessChromium(timeout: .seconds(300))
            let visit = try browser.visit(url, width: width, height: 1000, javaScript: javaScript, evaluate: chartCheck)
            try browser.shutDown()
            let charts = (visit.evaluated as? [[String: Any]] ?? []).map { chart in
                chart.mapValues { "\($0)" }
            }
            return Checked(problems: visit.problems, charts: charts, png: visit.png, viewportPNG: visit.viewportPNG)
        }
    }

    /// A PNG's width and height from its IHDR chunk.
    static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { return nil }
        let word = { (offset: Int) in bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }

    static func keep(_ png: Data, as name: String) throws {
        guard let folder = ProcessInfo.processInfo.environment["PIPELINE_REPORT_SCREENSHOTS"] else { return }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try png.write(to: URL(fileURLWithPath: folder).appendingPathComponent(name))
    }

    /// Every chart has drawn marks and both axes, with ticks, at a visible size.
    static func expectDrawn(_ checked: Checked, page: String, charts expected: Int) {
        #expect(checked.problems == [], "\(page)")
        #expect(checked.charts.count == expected, "\(page): charts")
        for chart in checked.charts {
            let name = "\(page) \(chart["title"] ?? "?")"
            // JSON booleans arrive as numbers: 0 is false.
            #expect(chart["empty"] == "0", "\(name) has no data")
            #expect((Int(chart["drawn"] ?? "") ?? 0) > 0, "\(name) drew no mark")
            #expect((Int(chart["xTicks"] ?? "") ?? 0) > 0 && (Int(chart["yTicks"] ?? "") ?? 0) > 0, "\(name) ticks")
            #expect((Double(chart["xAxis"] ?? "") ?? 0) > 0 && (Double(chart["yAxis"] ?? "") ?? 0) > 0, "\(name) axes")
            #expect(
                (Double(chart["width"] ?? "") ?? 0) > 100 && (Double(chart["height"] ?? "") ?? 0) > 100, "\(name) size")
            Self.expectLaidOut(chart, name: name)
        }
    }

    /// A chart fills the page's text column (but a square one, shown at its own size), and no two of its x
    /// labels overlap or stick out of it.
    static func expectLaidOut(_ chart: [String: String], name: String) {
        #expect(chart["overlaps"] == "0", "\(name): \(chart["overlaps"] ?? "?") pairs of x labels overlap")
        #expect(chart["outside"] == "0", "\(name): \(chart["outside"] ?? "?") x labels outside the chart")
        if chart["fixed"] == "0" {
            #expect((Double(chart["fill"] ?? "") ?? 0) > 0.99, "\(name) fills \(chart["fill"] ?? "?") of the column")
        } else {
            #expect((Double(chart["width"] ?? "") ?? 0) >= 400, "\(name) is shown at its own size")
        }
    }

    /// The week labels of the forecast-error chart overlapped into one string with five weeks.
    @Test("the forecast-error chart's labels never overlap, with 4, 8 or 53 weeks, at 880 and 1,400 pixels")
    func weekLabels() async throws {
        let fixture = try await ReportFixture.shared(.sqlite)
        for weeks in [4, 8, 53] {
            let (directory, out) = try await fixture.report { options in
                options.forecastQuality = Weeks(count: weeks)
                options.user = ReportFixture.newUser
            }
            for width in [880, 1400] {
                let index = try await Self.check(URL(fileURLWithPath: out + "/index.html"), width: width)
                #expect(index.problems == [])
                let chart = try #require(index.charts.first { $0["title"]?.hasPrefix("Mean absolute error") == true })
                Self.expectLaidOut(chart, name: "\(weeks) weeks at \(width) px")
                // Enough of them to read the axis by: at least one label in every eight weeks.
                #expect((Int(chart["labels"] ?? "") ?? 0) >= min(weeks, max(2, weeks / 8)), "\(weeks) weeks")
            }
            withExtendedLifetime(directory) {}
        }
    }

    /// `count` weeks of made-up errors ending on the fixture's last day.
    struct Weeks: ForecastQualitySource {
        let count: Int

        func forecastQuality(of snapshots: [ServedModelSnapshot]) async throws(ReportError) -> ForecastQuality {
            let last = Day.literal("2026-11-29")
            let periods = (0..<count).reversed().map { back in
                let first = last.adding(days: -7 * back - 6)
                return ForecastQuality.Period(
                    label: "\(first) – \(first.adding(days: 6))", first: first, last: first.adding(days: 6), days: 70,
                    users: 10, servedMAE: 0.7, persistenceMAE: 0.9, populationMAE: 0.75, smoothingMAE: 0.85)
            }
            return ForecastQuality(method: "made up for the test", periods: periods)
        }
    }

    @Test("the cohort page and a user's page load with no error or outside request, and every chart draws")
    func pages() async throws {
        let fixture = try await ReportFixture.shared(.sqlite)
        let (directory, out) = try await fixture.report()
        let index = try await Self.check(URL(fileURLWithPath: out + "/index.html"), width: 880)
        // Served models, forecast error, calibration, and the runs of each of the four tasks.
        Self.expectDrawn(index, page: "index.html", charts: 7)
        let user = try await Self.check(URL(fileURLWithPath: out + "/users/user-00001.html"), width: 880)
        // Severity with forecasts, flare probability, mood and energy, sources.
        Self.expectDrawn(user, page: "user-00001.html", charts: 4)
        for (checked, name) in [(index, "report-cohort.png"), (user, "report-user.png")] {
            let size = try #require(Self.pngSize(checked.png), "\(name) is a PNG")
            #expect(size.width == 880 && size.height > 1000, "\(name): the whole page")
            try Self.keep(checked.viewportPNG, as: name)
        }
        withExtendedLifetime(directory) {}
    }

    /// The check itself can fail: a page with a console error and a request to another machine is
    /// reported with both.
    @Test("a page with a console error and a remote image is reported with both")
    func catchesProblems() async throws {
        let directory = TemporaryDirectory("bad-page")
        let path = directory.path("bad.html")
        try """
        <!DOCTYPE html><html><head><title>bad</title></head><body>
        <img src="http://192.0.2.1:9/pixel.png" alt=""><script>console.error("broken chart")</script>
        <svg class="chart" width="200" height="120"><title>t</title><g class="plot"></g></svg></body></html>
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let checked = try await Self.check(URL(fileURLWithPath: path), width: 400, javaScript: true)
        #expect(checked.problems.contains { $0.hasPrefix("console error: broken chart") }, "\(checked.problems)")
        #expect(checked.problems.contains { $0 == "request to http://192.0.2.1:9/pixel.png" }, "\(checked.problems)")
        #expect(checked.charts.first?["drawn"] == "0")
    }
}
