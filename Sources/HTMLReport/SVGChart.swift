import Foundation

/// A chart as inline SVG: two axes with ticks and labels, a plot area, marks in data coordinates and a
/// legend. Small on purpose — the report's charts are lines, dots, rectangles and a reference line — and
/// deterministic: the same chart is the same bytes.
///
/// The SVG is styled by class (`series-N`, `axis`, `tick`, `grid`), so the page's stylesheet decides
/// colours; it has a `<title>` for screen readers, and needs no script or font from the network.
public struct SVGChart: Sendable {
    public var title: String
    public var width: Double
    public var height: Double
    public var x: Axis
    public var y: Axis
    public var marks: [Mark]
    /// Legend entries: a label and the class of the series it names.
    public var legend: [LegendEntry]
    /// Shown in the plot area when no mark has anything to draw.
    public var emptyMessage: String
    /// Pixels left of the plot for the y axis's tick labels and its label.
    public var leftMargin: Double = SVGChart.margin.left
    /// Whether the page stretches the chart to its width (the default, drawn at `pageWidth`), or shows it at its
    /// own size (a square reliability diagram, which would otherwise fill the screen).
    public var fillsWidth = true

    /// The width of a report page's text column (60rem less 2rem of padding at 16 px): charts are drawn at it,
    /// so that one stretched to the page shows its text at its own size.
    public static let pageWidth = 928.0

    public init(
        title: String, width: Double = SVGChart.pageWidth, height: Double = 260, x: Axis, y: Axis, marks: [Mark] = [],
        legend: [LegendEntry] = [], emptyMessage: String = "No data yet"
    ) {
        self.title = title
        self.width = width
        self.height = height
        self.x = x
        self.y = y
        self.marks = marks
        self.legend = legend
        self.emptyMessage = emptyMessage
    }

    /// One axis: the data range it spans, its ticks and its label.
    public struct Axis: Sendable, Hashable {
        public var label: String
        public var domain: ClosedRange<Double>
        public var ticks: [Tick]
        /// Draws a faint line across the plot at each tick.
        public var grid: Bool

        public init(label: String, domain: ClosedRange<Double>, ticks: [Tick], grid: Bool = false) {
            self.label = label
            self.domain = domain
            self.ticks = ticks
            self.grid = grid
        }

        /// A linear axis over `domain` with about `count` round-numbered ticks (1, 2 or 5 × 10ⁿ apart).
        public static func linear(
            _ label: String, domain: ClosedRange<Double>, count: Int = 5, grid: Bool = true,
            format: @Sendable (Double) -> String = SVGChart.Axis.number
        ) -> Axis {
            let step = niceStep(span: domain.upperBound - domain.lowerBound, count: count)
            var ticks: [Tick] = []
            if step > 0 {
                var index = (domain.lowerBound / step).rounded(.up)
                while index * step <= domain.upperBound + step * 1e-9 {
                    let value = index * step
                    ticks.append(Tick(value, format(abs(value) < step * 1e-9 ? 0 : value)))
                    index += 1
                }
            }
            return Axis(label: label, domain: domain, ticks: ticks, grid: grid)
        }

        /// How far along the domain `value` lies, from 0 at its lower bound to 1 at its upper (beyond them outside
        /// it); 0.5 on a domain of one value, which then sits mid-axis.
        func fraction(_ value: Double) -> Double {
            let span = domain.upperBound - domain.lowerBound
            return span > 0 ? (value - domain.lowerBound) / span : 0.5
        }

        /// The distance between ticks: 1, 2 or 5 × 10ⁿ, the smallest giving at most `count` intervals.
        static func niceStep(span: Double, count: Int) -> Double {
            guard span > 0, span.isFinite, count > 0 else { return 0 }
            let raw = span / Double(count)
            let magnitude = pow(10, (log10(raw)).rounded(.down))
            for multiple in [1.0, 2, 5, 10] where multiple * magnitude >= raw * (1 - 1e-9) {
                return multiple * magnitude
            }
            return 10 * magnitude
        }

        /// A tick label: an integer without decimals, else up to two.
        public static func number(_ value: Double) -> String {
            if value == value.rounded() && abs(value) < 1e15 { return String(Int(value)) }
            let text = String(format: "%.2f", value)
            return text.hasSuffix("0") ? String(text.dropLast()) : text
        }
    }

    public struct Tick: Sendable, Hashable {
        public var value: Double
        public var label: String

        public init(_ value: Double, _ label: String) {
            self.value = value
            self.label = label
        }
    }

    public struct LegendEntry: Sendable, Hashable {
        public var label: String
        public var seriesClass: String

        public init(_ label: String, seriesClass: String) {
            self.label = label
            self.seriesClass = seriesClass
        }
    }

    /// What is drawn, in data coordinates. Points outside the axes' domains are clipped by the plot area.
    public enum Mark: Sendable, Hashable {
        /// A polyline through the points; `nil` breaks it (a day not logged).
        case line([Point?], seriesClass: String)
        /// A dot of `radius` pixels at each point.
        case dots([Point], radius: Double, seriesClass: String)
        /// Rectangles spanning data ranges on both axes (bars, bands, cells).
        case rects([Rect], seriesClass: String)
    }

    public struct Point: Sendable, Hashable {
        public var x: Double
        public var y: Double

        public init(_ x: Double, _ y: Double) {
            self.x = x
            self.y = y
        }
    }

    public struct Rect: Sendable, Hashable {
        public var x: ClosedRange<Double>
        public var y: ClosedRange<Double>
        /// A tooltip (`<title>`), e.g. the value and the day.
        public var label: String?

        public init(x: ClosedRange<Double>, y: ClosedRange<Double>, label: String? = nil) {
            self.x = x
            self.y = y
            self.label = label
        }
    }

    // MARK: - Layout

    /// Pixels around the plot area for tick labels, axis labels and the legend.
    static let margin = (left: 56.0, right: 16.0, top: 12.0, bottom: 44.0)
    static let legendHeight = 22.0

    var plotLeft: Double { leftMargin }
    var plotRight: Double { width - Self.margin.right }
    var plotTop: Double { Self.margin.top + (legend.isEmpty ? 0 : Self.legendHeight) }
    var plotBottom: Double { height - Self.margin.bottom }

    /// The pixel column of data value `value` on the x axis.
    func px(_ value: Double) -> Double {
        plotLeft + x.fraction(value) * (plotRight - plotLeft)
    }

    /// The pixel row of data value `value` on the y axis (up is larger).
    func py(_ value: Double) -> Double {
        plotBottom - y.fraction(value) * (plotBottom - plotTop)
    }

    /// Whether any mark has something to draw.
    public var hasData: Bool {
        marks.contains { mark in
            switch mark {
            case .line(let points, _): points.compactMap { $0 }.count >= 1
            case .dots(let points, _, _): !points.isEmpty
            case .rects(let rects, _): !rects.isEmpty
            }
        }
    }

    // MARK: - Rendering

    /// The chart as an `<svg>` element. `id` must be unique in the page (it names the title and the
    /// plot's clip path).
    public func svg(id: String) -> String {
        var out = ""
        out.reserveCapacity(4096)
        out +=
            "<svg class=\"\(fillsWidth ? "chart" : "chart fixed")\" id=\"\(HTMLText.attribute(id))\" xmlns=\"http://www.w3.org/2000/svg\" "
        out += "viewBox=\"0 0 \(Self.f(width)) \(Self.f(height))\" width=\"\(Self.f(width))\" "
        out += "height=\"\(Self.f(height))\" role=\"img\" aria-labelledby=\"\(HTMLText.attribute(id))-title\">"
        out += "<title id=\"\(HTMLText.attribute(id))-title\">\(HTMLText.text(title))</title>"
        out += "<defs><clipPath id=\"\(HTMLText.attribute(id))-clip\"><rect x=\"\(Self.f(plotLeft))\" "
        out += "y=\"\(Self.f(plotTop))\" width=\"\(Self.f(plotRight - plotLeft))\" "
        out += "height=\"\(Self.f(plotBottom - plotTop))\"/></clipPath></defs>"
        renderGrid(into: &out)
        out += "<g class=\"plot\" clip-path=\"url(#\(HTMLText.attribute(id))-clip)\">"
        for mark in marks { render(mark, into: &out) }
        out += "</g>"
        if !hasData {
            out += Self.text(
                emptyMessage, x: (plotLeft + plotRight) / 2, y: (plotTop + plotBottom) / 2, anchor: "middle",
                class: "empty")
        }
        renderXAxis(into: &out)
        renderYAxis(into: &out)
        renderLegend(into: &out)
        out += "</svg>"
        return out
    }

    private func renderGrid(into out: inout String) {
        guard x.grid || y.grid else { return }
        out += "<g class=\"grid\">"
        if y.grid {
            for tick in y.ticks where y.domain.contains(tick.value) {
                out += Self.line(plotLeft, py(tick.value), plotRight, py(tick.value))
            }
        }
        if x.grid {
            for tick in x.ticks where x.domain.contains(tick.value) {
                out += Self.line(px(tick.value), plotTop, px(tick.value), plotBottom)
            }
        }
        out += "</g>"
    }

    private func render(_ mark: Mark, into out: inout String) {
        switch mark {
        case .line(let points, let seriesClass):
            var runs: [[Point]] = [[]]
            for point in points {
                if let point, point.x.isFinite, point.y.isFinite {
                    runs[runs.count - 1].append(point)
                } else if !runs[runs.count - 1].isEmpty {
                    runs.append([])
                }
            }
            out += "<g class=\"line \(HTMLText.attribute(seriesClass))\">"
            for run in runs where !run.isEmpty {
                if run.count == 1 {
                    // A lone day between gaps: a dot, or it would not show.
                    out += "<circle cx=\"\(Self.f(px(run[0].x)))\" cy=\"\(Self.f(py(run[0].y)))\" r=\"1.8\"/>"
                    continue
                }
                out += "<polyline points=\""
                out += run.map { "\(Self.f(px($0.x))),\(Self.f(py($0.y)))" }.joined(separator: " ")
                out += "\"/>"
            }
            out += "</g>"
        case .dots(let points, let radius, let seriesClass):
            out += "<g class=\"dots \(HTMLText.attribute(seriesClass))\">"
            for point in points where point.x.isFinite && point.y.isFinite {
                out += "<circle cx=\"\(Self.f(px(point.x)))\" cy=\"\(Self.f(py(point.y)))\" r=\"\(Self.f(radius))\"/>"
            }
            out += "</g>"
        case .rects(let rects, let seriesClass):
            out += "<g class=\"rects \(HTMLText.attribute(seriesClass))\">"
            for rect in rects {
                let left = px(rect.x.lowerBound)
                let right = px(rect.x.upperBound)
                let top = py(rect.y.upperBound)
                let bottom = py(rect.y.lowerBound)
                guard [left, right, top, bottom].allSatisfy(\.isFinite) else { continue }
                out += "<rect x=\"\(Self.f(left))\" y=\"\(Self.f(top))\" width=\"\(Self.f(max(right - left, 0)))\" "
                out += "height=\"\(Self.f(max(bottom - top, 0)))\""
                if let label = rect.label {
                    out += "><title>\(HTMLText.text(label))</title></rect>"
                } else {
                    out += "/>"
                }
            }
            out += "</g>"
        }
    }

    private func renderXAxis(into out: inout String) {
        out += "<g class=\"axis x-axis\">" + Self.line(plotLeft, plotBottom, plotRight, plotBottom, class: "domain")
        let labelled = Set(labelledXTicks)
        for (index, tick) in x.ticks.enumerated() where x.domain.contains(tick.value) {
            let column = px(tick.value)
            out += "<g class=\"tick\">" + Self.line(column, plotBottom, column, plotBottom + 5)
            if labelled.contains(index) {
                out += Self.text(tick.label, x: column, y: plotBottom + 18, anchor: "middle")
            }
            out += "</g>"
        }
        out += Self.text(x.label, x: (plotLeft + plotRight) / 2, y: height - 6, anchor: "middle", class: "axis-label")
        out += "</g>"
    }

    /// The x ticks whose labels are drawn, by index: from the left, each whose label clears the last drawn one by
    /// `labelGap`, and none that would run off the chart; so labels never overlap, however many ticks there are
    /// (53 weeks on a page), at any width the page stretches the chart to.
    var labelledXTicks: [Int] {
        var kept: [Int] = []
        var lastRight = -Double.infinity
        for (index, tick) in x.ticks.enumerated() where x.domain.contains(tick.value) {
            let half = Self.labelWidth(tick.label) / 2
            let column = px(tick.value)
            guard column - half >= lastRight + Self.labelGap, column - half >= 0, column + half <= width else {
                continue
            }
            kept.append(index)
            lastRight = column + half
        }
        return kept
    }

    /// Space between two tick labels, in the chart's pixels.
    static let labelGap = 8.0

    /// An upper bound on the width of `text` in the tick labels' 11 px sans-serif: 7 px a character (digits and
    /// most letters take 6 to 6.5; a few capitals, such as M and W, more).
    static func labelWidth(_ text: String) -> Double { Double(text.count) * 7 }

    private func renderYAxis(into out: inout String) {
        out += "<g class=\"axis y-axis\">" + Self.line(plotLeft, plotTop, plotLeft, plotBottom, class: "domain")
        for tick in y.ticks where y.domain.contains(tick.value) {
            let row = py(tick.value)
            out += "<g class=\"tick\">" + Self.line(plotLeft - 5, row, plotLeft, row)
            out += Self.text(tick.label, x: plotLeft - 8, y: row, anchor: "end", shift: "0.32em") + "</g>"
        }
        let middle = Self.f((plotTop + plotBottom) / 2)
        out += "<text class=\"axis-label\" transform=\"translate(12 \(middle)) rotate(-90)\" "
        out += "text-anchor=\"middle\">\(HTMLText.text(y.label))</text></g>"
    }

    /// A `<line>` between two pixel positions.
    static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, class name: String? = nil) -> String {
        let attribute = name.map { " class=\"\($0)\"" } ?? ""
        return "<line\(attribute) x1=\"\(f(x1))\" y1=\"\(f(y1))\" x2=\"\(f(x2))\" y2=\"\(f(y2))\"/>"
    }

    /// A `<text>` at a pixel position; `shift` moves it down (`dy`), e.g. to centre it on a tick.
    static func text(
        _ content: String, x: Double, y: Double, anchor: String, shift: String? = nil, class name: String? = nil
    ) -> String {
        let attribute = name.map { " class=\"\($0)\"" } ?? ""
        let dy = shift.map { " dy=\"\($0)\"" } ?? ""
        return
            "<text\(attribute) x=\"\(f(x))\" y=\"\(f(y))\"\(dy) text-anchor=\"\(anchor)\">\(HTMLText.text(content))</text>"
    }

    private func renderLegend(into out: inout String) {
        guard !legend.isEmpty else { return }
        out += "<g class=\"legend\">"
        var left = plotLeft
        for entry in legend {
            out += "<g class=\"\(HTMLText.attribute(entry.seriesClass))\"><rect class=\"swatch\" x=\"\(Self.f(left))\" "
            out += "y=\"\(Self.f(Self.margin.top))\" width=\"12\" height=\"12\"/>"
            out += Self.text(entry.label, x: left + 17, y: Self.margin.top + 10, anchor: "start") + "</g>"
            // Character widths of the page's sans-serif at 12 px average about 6.5 px.
            left += 17 + Double(entry.label.count) * 6.5 + 18
        }
        out += "</g>"
    }

    /// A coordinate with at most one decimal, so the SVG stays small and its bytes stable. Written
    /// by hand: `String(format:)` cost more than the rest of a page together.
    static func f(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e12 else { return value.isFinite ? String(Int(value)) : "0" }
        let tenths = Int((value * 10).rounded())
        let whole = String(abs(tenths) / 10)
        let sign = tenths < 0 ? "-" : ""
        let fraction = abs(tenths) % 10
        return fraction == 0 ? sign + whole : sign + whole + "." + String(fraction)
    }
}
