import Domain
import Foundation

/// `index.html`: the cohort — who is served which model, how well the served models forecast against
/// the references, how well flare probabilities are calibrated, and whether the scheduler keeps up.
struct CohortPage {
    let report: CohortReport
    /// Pages written by this run; other users are listed without a link.
    let linked: Set<String>

    var html: String {
        var page = HTMLPage(title: "pipeline report: cohort")
        page.heading(1, "Cohort")
        page.paragraph(
            "\(report.users.count) users · made \(ISO8601Instant.string(from: report.generatedAt)) from "
                + report.database, class: "meta")
        page.paragraph(
            "This report holds health data. Its files are readable by their owner only (mode 0600, folder 0700): "
                + "keep it that way, and do not publish or send it."
                + (report.redacted
                    ? " User ids are replaced by pseudonyms and notes are left out (--redact)."
                    : " It shows user ids and notes; make it with --redact to replace ids by pseudonyms and leave notes out."),
            class: "privacy")
        servedModels(&page)
        forecastQuality(&page)
        calibration(&page)
        scheduler(&page)
        users(&page)
        return page.html
    }

    private func servedModels(_ page: inout HTMLPage) {
        page.heading(2, "Served models", id: "models")
        var counts: [ServedModelKind: Int] = [:]
        for user in report.users { counts[user.servedModel, default: 0] += 1 }
        let combinations = counts.keys.filter { if case .combined = $0 { true } else { false } }.sorted()
        var categories: [(label: String, count: Int)] = combinations.map { ($0.label, counts[$0] ?? 0) }
        if combinations.isEmpty { categories.append(("combination", 0)) }
        if let personal = counts[.personal] { categories.append(("personal", personal)) }
        categories.append(("population", counts[.population] ?? 0))
        let baselines = counts.keys.filter { if case .baseline = $0 { true } else { false } }.sorted()
        categories += baselines.map { ($0.label, counts[$0] ?? 0) }
        categories.append(("not trained yet", counts[ServedModelKind.none] ?? 0))
        page.figure(
            ChartFactory.categoryBars(
                title: "Users by kind of served model", categories: categories, valueLabel: "users"),
            caption: "Users by the model they are served: a combination of their own past (exponential smoothing and "
                + "their long-run level) with the population model and their personal model, by the candidate it "
                + "weighs most (as pipeline model shows it), or the population model until their first retrain.")
    }

    private func forecastQuality(_ page: inout HTMLPage) {
        let quality = report.forecastQuality
        page.heading(2, "Forecast error", id: "forecast-error")
        let periods = quality.periods
        // A period's dates when they fit under its bars; else the day it begins, and the chart draws as many
        // of those as fit without overlapping (53 weeks: every fourth or so). The table below has every date.
        let slot = (SVGChart.pageWidth - SVGChart.margin.left - SVGChart.margin.right) / Double(max(periods.count, 1))
        let fits = periods.allSatisfy { SVGChart.labelWidth($0.label) + SVGChart.labelGap <= slot }
        page.figure(
            ChartFactory.groupedBars(
                title: "Mean absolute error of next-day severity",
                groups: periods.map { fits ? $0.label : ChartFactory.shortDay($0.first) },
                series: [
                    ("served models", periods.map(\.servedMAE)), ("tomorrow = today", periods.map(\.persistenceMAE)),
                    ("exponential smoothing", periods.map(\.smoothingMAE)),
                    ("population model", periods.map(\.populationMAE)),
                ], valueLabel: "mean absolute error (points)", groupLabel: fits ? "days scored" : "first day scored"),
            caption: "Mean absolute error of the next day's severity (0–10) of the models users are served, beside "
                + "\"tomorrow = today\", exponential smoothing of each person's own severities and the population "
                + "model on the same days; lower is better. Figures: " + quality.method + ".")
        if let measured = quality.measuredAt {
            var note = "Measured \(ISO8601Instant.string(from: measured))."
            if let retrained = quality.retrainedSince {
                note +=
                    " Models were retrained since (the newest at \(ISO8601Instant.string(from: retrained))): these "
                    + "figures are of the models served before; run pipeline evaluate again for the models served now."
            }
            page.paragraph(note, class: quality.retrainedSince == nil ? "meta" : "meta stale")
        } else {
            page.paragraph(
                "Each model's error on its own hold-out days; pipeline evaluate measures a walk forward over the "
                    + "last weeks instead, and this page shows it once it has run.", class: "meta")
        }
        page.table(
            [
                "days scored", "users", "days", "served models", "tomorrow = today", "exponential smoothing",
                "population model",
            ],
            periods.map { period in
                [
                    HTMLPage.Cell(period.label), HTMLPage.Cell(String(period.users), numeric: true),
                    HTMLPage.Cell(String(period.days), numeric: true),
                    HTMLPage.Cell(Self.decimal(period.servedMAE), numeric: true),
                    HTMLPage.Cell(Self.decimal(period.persistenceMAE), numeric: true),
                    HTMLPage.Cell(Self.decimal(period.smoothingMAE), numeric: true),
                    HTMLPage.Cell(Self.decimal(period.populationMAE), numeric: true),
                ]
            })
    }

    private func calibration(_ page: inout HTMLPage) {
        let calibration = report.calibration
        page.heading(2, "Flare calibration", id: "calibration")
        page.figure(
            ChartFactory.reliability(title: "Reliability of flare probabilities", calibration: calibration),
            caption: "Each dot is a tenth of the probability range: the mean flare probability the served models "
                + "gave on the days held out of their fits, against how often those days were flares (severity at "
                + "or above the threshold). On the diagonal, a 30% forecast comes true 30% of the time. "
                + "\(calibration.count) predictions"
                + (calibration.brierScore.map { ", Brier score \(Self.decimal($0))." } ?? "."))
    }

    private func scheduler(_ page: inout HTMLPage) {
        let health = report.scheduler
        page.heading(2, "Scheduler", id: "scheduler")
        let last = health.lastLaunch.map { ISO8601Instant.string(from: $0) } ?? "never"
        page.table(
            ["", ""],
            [
                [HTMLPage.Cell("last launch"), HTMLPage.Cell(last)],
                [HTMLPage.Cell("running now"), HTMLPage.Cell(String(health.running), numeric: true)],
                [
                    HTMLPage.Cell("due, waiting for the next launch"),
                    HTMLPage.Cell(String(health.dueNow), numeric: true),
                ],
                [
                    HTMLPage.Cell("overdue (due for longer than their task's cadence)"),
                    HTMLPage.Cell(
                        String(health.overdue)
                            + (health.longestOverdue.map { ", the oldest by \(Self.duration($0))" } ?? ""),
                        numeric: true),
                ],
                [HTMLPage.Cell("waiting until their time"), HTMLPage.Cell(String(health.waiting), numeric: true)],
                [HTMLPage.Cell("dead letters"), HTMLPage.Cell(String(health.deadLetters), numeric: true)],
            ], class: "facts")
        if health.healthy {
            page.paragraph(
                "pipeline status --check finds no problem (at \(ISO8601Instant.string(from: report.generatedAt))).")
        } else {
            page.paragraph(
                "pipeline status --check finds problems (at \(ISO8601Instant.string(from: report.generatedAt))); "
                    + "pipeline status lists each:", class: "stale")
            page.raw("<ul class=\"problems\">")
            for problem in health.problems { page.raw("<li>\(HTMLText.text(problem))</li>") }
            page.raw("</ul>\n")
        }
        let axis = ChartFactory.dayAxis(health.days, label: "day (UTC)")
        for task in health.tasks {
            let top = Double(zip(task.succeeded, task.failed).map { $0 + $1 }.max() ?? 0)
            var ok: [SVGChart.Rect] = []
            var failed: [SVGChart.Rect] = []
            for (index, day) in health.days.enumerated() {
                let x = (Double(index) + 0.12)...(Double(index) + 0.88)
                let good = Double(task.succeeded[index])
                let bad = Double(task.failed[index])
                if good > 0 { ok.append(SVGChart.Rect(x: x, y: 0...good, label: "\(day): \(Int(good)) succeeded")) }
                if bad > 0 {
                    failed.append(SVGChart.Rect(x: x, y: good...(good + bad), label: "\(day): \(Int(bad)) failed"))
                }
            }
            page.figure(
                SVGChart(
                    title: "Runs of \(task.identifier) per day", height: 200, x: axis,
                    y: .linear("runs", domain: 0...max(top * 1.1, 1), count: 4),
                    marks: [.rects(ok, seriesClass: "series-ok"), .rects(failed, seriesClass: "series-fail")],
                    legend: [
                        SVGChart.LegendEntry("succeeded", seriesClass: "series-ok"),
                        SVGChart.LegendEntry("failed or expired", seriesClass: "series-fail"),
                    ], emptyMessage: "No run in these days"),
                caption:
                    "\(task.identifier): runs started per day, by outcome, over the last \(health.days.count) days.")
        }
    }

    private func users(_ page: inout HTMLPage) {
        page.heading(2, "Users", id: "users")
        page.table(
            ["user", "served model", "days logged of the last \(report.windowDays)", "last day logged"],
            report.users.map { user in
                [
                    HTMLPage.Cell(user.name, href: linked.contains(user.page) ? user.page : nil),
                    HTMLPage.Cell(user.servedModel.label), HTMLPage.Cell(String(user.loggedDays), numeric: true),
                    HTMLPage.Cell(user.lastDay?.description ?? "—"),
                ]
            })
    }

    static func decimal(_ value: Double) -> String { value.isFinite ? String(format: "%.3f", value) : "–" }

    static func duration(_ seconds: TimeInterval) -> String {
        if seconds < 2 * 3600 { return "\(Int(seconds / 60)) min" }
        if seconds < 2 * 86400 { return "\(Int(seconds / 3600)) h" }
        return "\(Int(seconds / 86400)) days"
    }
}
