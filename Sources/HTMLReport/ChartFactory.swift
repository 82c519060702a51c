import Domain
import Foundation

/// The report's kinds of chart, built on `SVGChart`: a day axis, bars by category, grouped bars,
/// a reliability diagram.
enum ChartFactory {
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// An x axis over `days` (index 0 is the first day; a day spans [i, i + 1]), ticked on the first
    /// of each month, or weekly on Mondays for a window of six weeks or less.
    static func dayAxis(_ days: [Day], label: String = "day") -> SVGChart.Axis {
        var ticks: [SVGChart.Tick] = []
        let weekly = days.count <= 42
        for (index, day) in days.enumerated() {
            let (_, month, dayOfMonth) = day.parts
            if weekly ? day.weekday == 0 : dayOfMonth == 1 {
                ticks.append(SVGChart.Tick(Double(index) + 0.5, "\(months[month - 1]) \(dayOfMonth)"))
            }
        }
        return SVGChart.Axis(label: label, domain: 0...Double(max(days.count, 1)), ticks: ticks, grid: true)
    }

    /// "Mar 1": a day in a few characters, for a tick.
    static func shortDay(_ day: Day) -> String {
        let (_, month, dayOfMonth) = day.parts
        return "\(months[month - 1]) \(dayOfMonth)"
    }

    /// A categorical axis: category `i` spans [i, i + 1], labelled at its middle.
    static func categoryAxis(_ labels: [String], label: String) -> SVGChart.Axis {
        SVGChart.Axis(
            label: label, domain: 0...Double(max(labels.count, 1)),
            ticks: labels.enumerated().map { SVGChart.Tick(Double($0.offset) + 0.5, $0.element) })
    }

    /// A daily series as a line: point i at the middle of day i.
    static func dailyLine(_ values: [Double?], seriesClass: String) -> SVGChart.Mark {
        .line(
            values.enumerated().map { index, value in value.map { SVGChart.Point(Double(index) + 0.5, $0) } },
            seriesClass: seriesClass)
    }

    /// Horizontal bars, one per category, from zero to its count.
    static func categoryBars(title: String, categories: [(label: String, count: Int)], valueLabel: String) -> SVGChart {
        let top = Double(max(categories.map(\.count).max() ?? 0, 1))
        // Categories listed top to bottom: the first category is the highest band.
        let n = Double(categories.count)
        let rects = categories.enumerated().map { index, category in
            SVGChart.Rect(
                x: 0...Double(category.count), y: (n - Double(index) - 0.8)...(n - Double(index) - 0.2),
                label: "\(category.label): \(category.count)")
        }
        var y = categoryAxis(categories.reversed().map(\.label), label: "")
        y.grid = false
        return SVGChart(
            title: title, height: 60 + 34 * n, x: .linear(valueLabel, domain: 0...(top * 1.1).rounded(.up)),
            y: y, marks: categories.allSatisfy({ $0.count == 0 }) ? [] : [.rects(rects, seriesClass: "series-0")]
        )
        .withLeftMargin(for: categories.map(\.label))
    }

    /// Bars grouped by category: one bar per series in each group.
    static func groupedBars(
        title: String, groups: [String], series: [(label: String, values: [Double])], valueLabel: String,
        groupLabel: String
    ) -> SVGChart {
        let top = series.flatMap(\.values).filter(\.isFinite).max() ?? 0
        let width = 0.8 / Double(max(series.count, 1))
        let marks: [SVGChart.Mark] = series.enumerated().map { index, entry in
            .rects(
                entry.values.enumerated().compactMap { group, value in
                    guard value.isFinite else { return nil }
                    let left = Double(group) + 0.1 + Double(index) * width
                    return SVGChart.Rect(
                        x: left...(left + width * 0.92), y: 0...value,
                        label: "\(entry.label), \(groups[group]): \(String(format: "%.3f", value))")
                }, seriesClass: "series-\(index)")
        }
        return SVGChart(
            title: title, x: categoryAxis(groups, label: groupLabel),
            y: .linear(valueLabel, domain: 0...max(top * 1.15, 0.1)), marks: groups.isEmpty ? [] : marks,
            legend: series.enumerated().map {
                SVGChart.LegendEntry($0.element.label, seriesClass: "series-\($0.offset)")
            })
    }

    /// A reliability diagram: each bin's mean predicted probability against the observed flare rate,
    /// dots sized by the bin's share of predictions, over the diagonal of perfect calibration.
    static func reliability(title: String, calibration: Calibration) -> SVGChart {
        let largest = Double(calibration.bins.map(\.count).max() ?? 1)
        let dots: [SVGChart.Mark] = calibration.bins.map { bin in
            .dots(
                [SVGChart.Point(bin.meanPrediction, bin.observedRate)],
                radius: 2.5 + 5.5 * sqrt(Double(bin.count) / largest),
                seriesClass: "series-0")
        }
        var chart = SVGChart(
            title: title, width: 420, height: 380,
            // A margin around 0…1, so a dot at a corner is not cut in half.
            x: .linear("predicted flare probability", domain: -0.03...1.03, count: 6),
            y: .linear("observed flare rate", domain: -0.03...1.03, count: 6),
            marks: calibration.bins.isEmpty
                ? [] : [.line([SVGChart.Point(0, 0), SVGChart.Point(1, 1)], seriesClass: "series-reference")] + dots,
            legend: [
                SVGChart.LegendEntry("bins of predictions", seriesClass: "series-0"),
                SVGChart.LegendEntry("perfect calibration", seriesClass: "series-reference"),
            ])
        // A square: stretched to the page it would fill the screen.
        chart.fillsWidth = false
        return chart
    }
}

extension SVGChart {
    /// Room on the left for the longest category label.
    func withLeftMargin(for labels: [String]) -> SVGChart {
        var chart = self
        chart.leftMargin = max(SVGChart.margin.left, 16 + Double(labels.map(\.count).max() ?? 0) * 6.5)
        return chart
    }
}
