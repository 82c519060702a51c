import Domain
import Foundation
import Learning
import PipelineKit

/// `users/<name>.html`: one person's last months — what they logged, what the served model forecast
/// for those days, where each metric came from, what the model learned and how it got there.
struct UserPage {
    let report: UserReport

    var html: String {
        var page = HTMLPage(title: "pipeline report: \(report.name)")
        page.raw("<p class=\"meta\"><a href=\"../index.html\">← cohort</a></p>\n")
        page.heading(1, report.name)
        let trained = report.servedTrainedAt.map { ", trained \(ISO8601Instant.string(from: $0))" } ?? ""
        page.paragraph(
            "Served model: \(report.servedModel.label)\(trained). Days \(report.days.first?.description ?? "") to "
                + "\(report.days.last?.description ?? "")" + (report.timeZone.map { " (\($0))" } ?? "") + ".",
            class: "meta")
        page.paragraph(
            "This page holds health data; its file is readable by its owner only.", class: "privacy")
        severity(&page)
        combination(&page)
        flare(&page)
        moodAndEnergy(&page)
        sources(&page)
        associations(&page)
        history(&page)
        notes(&page)
        return page.html
    }

    private var axis: SVGChart.Axis { ChartFactory.dayAxis(report.days) }

    /// The held-out days as a shaded band behind the series.
    private func holdoutBand(y: ClosedRange<Double>) -> [SVGChart.Mark] {
        guard let holdout = report.holdout, let first = report.days.first else { return [] }
        let start = Double(max(first.distance(to: holdout.lowerBound), 0))
        let end = Double(min(first.distance(to: holdout.upperBound) + 1, report.days.count))
        guard end > start else { return [] }
        return [
            .rects(
                [SVGChart.Rect(x: start...end, y: y, label: "held out of the model's fit")], seriesClass: "series-band")
        ]
    }

    private func severity(_ page: inout HTMLPage) {
        page.heading(2, "Symptom severity and its forecast", id: "severity")
        if let next = report.next {
            let interval = next.interval.map { ", 80% interval \(Int($0.lowerBound))–\(Int($0.upperBound))" } ?? ""
            page.paragraph(
                "Forecast for \(next.day): severity \(Self.points(next.severity))\(interval); flare probability "
                    + String(format: "%.0f%%", next.flareProbability * 100) + ".")
        }
        var legend = [
            SVGChart.LegendEntry("severity logged", seriesClass: "series-0"),
            SVGChart.LegendEntry("forecast", seriesClass: "series-1"),
        ]
        let bands = report.interval.enumerated().compactMap { index, interval -> SVGChart.Rect? in
            guard let interval else { return nil }
            return SVGChart.Rect(
                x: Double(index)...Double(index + 1), y: (interval.lowerBound - 0.5)...(interval.upperBound + 0.5),
                label: "\(report.days[index]): 80% interval \(Int(interval.lowerBound))–\(Int(interval.upperBound))")
        }
        if !bands.isEmpty { legend.append(SVGChart.LegendEntry("80% interval", seriesClass: "series-interval")) }
        if report.holdout != nil {
            legend.append(SVGChart.LegendEntry("held out of the fit", seriesClass: "series-band"))
        }
        page.figure(
            SVGChart(
                title: "Symptom severity and the served model's forecast", x: axis,
                y: .linear("severity (0–10)", domain: -0.5...10.5),
                marks: holdoutBand(y: -0.5...10.5) + [
                    .rects(bands, seriesClass: "series-interval"),
                    ChartFactory.dailyLine(report.severity, seriesClass: "series-0"),
                    ChartFactory.dailyLine(report.forecast, seriesClass: "series-1"),
                ], legend: legend),
            caption: "Severity as logged, and what the served model forecasts for each day from the days before it "
                + "(shown where severity was logged that day and the day before), a whole number, with the interval "
                + "that should hold the day's severity four days in five. Outside the shaded hold-out the model saw "
                + "those days in training.")
    }

    /// The served combination's weights and every candidate's error on the folds of the retrain that made it.
    private func combination(_ page: inout HTMLPage) {
        guard !report.combination.isEmpty || !report.candidates.isEmpty else { return }
        page.heading(2, "How the forecast is made", id: "combination")
        if !report.combination.isEmpty {
            page.table(
                ["forecast", "weight"],
                report.combination.map { weight in
                    [
                        HTMLPage.Cell(Self.candidateName(weight.candidate.rawValue)),
                        HTMLPage.Cell(String(format: "%.2f", weight.weight), numeric: true),
                    ]
                })
        }
        if !report.candidates.isEmpty {
            page.table(
                ["candidate", "mean absolute error on the folds"],
                report.candidates.map { score in
                    [
                        HTMLPage.Cell(Self.candidateName(score.candidate)),
                        HTMLPage.Cell(String(format: "%.3f", score.meanAbsoluteError), numeric: true),
                    ]
                })
        }
        page.paragraph(
            "The forecast weighs the person's own past — exponential smoothing of their severities and their "
                + "long-run level — with the population model and their personal model; the weights are fitted on "
                + "the rolling-origin folds of their last weeks and held toward the cohort's. Each candidate's error "
                + "is that of its whole-number forecasts on the same fold days; the combination's is of weights "
                + "fitted on earlier folds only.", class: "meta")
    }

    static func candidateName(_ candidate: String) -> String {
        switch candidate {
        case "persistence": "tomorrow = today"
        case "recentMean": "mean of the last 7 days"
        case "smoothing": "exponential smoothing"
        case "longMean": "long-run level"
        case "population": "population model"
        case "personal": "personal model"
        case "combined": "the combination"
        case "incumbent": "the model serving before"
        default: candidate
        }
    }

    static func points(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }

    private func flare(_ page: inout HTMLPage) {
        page.heading(2, "Flare probability", id: "flare")
        let flares = report.severity.enumerated().compactMap { index, value -> SVGChart.Rect? in
            guard let value, value >= report.flareThreshold else { return nil }
            return SVGChart.Rect(
                x: Double(index)...Double(index + 1), y: 0...1, label: "\(report.days[index]): a flare day")
        }
        page.figure(
            SVGChart(
                title: "Flare probability forecast for each day", height: 200, x: axis,
                y: .linear("probability", domain: 0...1, count: 4),
                marks: [
                    .rects(flares, seriesClass: "series-flare"),
                    ChartFactory.dailyLine(report.flareProbability, seriesClass: "series-3"),
                ],
                legend: [
                    SVGChart.LegendEntry("probability of a flare", seriesClass: "series-3"),
                    SVGChart.LegendEntry(
                        "flare day (severity ≥ \(Int(report.flareThreshold)))", seriesClass: "series-flare"),
                ]),
            caption: "The served model's probability that each day is a flare, with the days that were.")
    }

    private func moodAndEnergy(_ page: inout HTMLPage) {
        page.heading(2, "Mood and energy", id: "mood")
        page.figure(
            SVGChart(
                title: "Mood and energy as logged", height: 220, x: axis, y: .linear("1–5", domain: 1...5, count: 4),
                marks: [
                    ChartFactory.dailyLine(report.mood, seriesClass: "series-0"),
                    ChartFactory.dailyLine(report.energy, seriesClass: "series-2"),
                ],
                legend: [
                    SVGChart.LegendEntry("mood", seriesClass: "series-0"),
                    SVGChart.LegendEntry("energy", seriesClass: "series-2"),
                ]),
            caption: "Mood and energy (1–5) as the person logged them; gaps are days not logged.")
    }

    private func sources(_ page: inout HTMLPage) {
        page.heading(2, "Who entered the data", id: "sources")
        let rows = report.sources
        var user: [SVGChart.Rect] = []
        var health: [SVGChart.Rect] = []
        for (row, entry) in rows.enumerated() {
            let band = Double(rows.count - row)
            // One rectangle per run of days with the same source: a page has a few dozen, not 720.
            var start = 0
            while start < entry.perDay.count {
                var end = start + 1
                while end < entry.perDay.count && entry.perDay[end] == entry.perDay[start] { end += 1 }
                if let source = entry.perDay[start] {
                    let days =
                        start + 1 == end ? "\(report.days[start])" : "\(report.days[start]) to \(report.days[end - 1])"
                    let rect = SVGChart.Rect(
                        x: Double(start)...Double(end), y: (band - 0.85)...(band - 0.15),
                        label: "\(Self.fieldName(entry.field)), \(days): \(source == .user ? "typed" : "health data")")
                    if source == .user { user.append(rect) } else { health.append(rect) }
                }
                start = end
            }
        }
        let labels = rows.map { Self.fieldName($0.field) }
        var y = ChartFactory.categoryAxis(labels.reversed(), label: "")
        y.grid = false
        page.figure(
            SVGChart(
                title: "Source of each metric per day", height: 60 + 30 * Double(rows.count) + 22, x: axis, y: y,
                marks: [.rects(user, seriesClass: "series-user"), .rects(health, seriesClass: "series-health")],
                legend: [
                    SVGChart.LegendEntry("typed by the person", seriesClass: "series-user"),
                    SVGChart.LegendEntry("from health data", seriesClass: "series-health"),
                ], emptyMessage: "No metric recorded in these days"
            ).withLeftMargin(for: labels),
            caption: "Each metric per day: typed by the person (which health data never overwrites) or filled from "
                + "health data; blank when empty. Severity, mood, energy and notes are always the person's.")
        page.table(
            ["metric", "typed by the person", "from health data", "empty"],
            rows.map { entry in
                let typed = entry.perDay.filter { $0 == .user }.count
                let synced = entry.perDay.filter { $0 == .health }.count
                return [
                    HTMLPage.Cell(Self.fieldName(entry.field)), HTMLPage.Cell("\(typed) days", numeric: true),
                    HTMLPage.Cell("\(synced) days", numeric: true),
                    HTMLPage.Cell("\(entry.perDay.count - typed - synced) days", numeric: true),
                ]
            })
    }

    private func associations(_ page: inout HTMLPage) {
        page.heading(2, "What the model learned", id: "associations")
        guard !report.associations.isEmpty else {
            let personal = report.combination.first { $0.candidate == .personal }?.weight ?? 0
            page.paragraph(
                report.servedModel == .personal || personal >= PersonalModels.insightWeight
                    ? "No association of this person's model is large enough to put in words."
                    : "This person's forecast follows their own past and the cohort more than a model of their own "
                        + "(served: \(report.servedModel.label)), so it says nothing personal.")
            return
        }
        page.table(
            ["association, as the weekly insight says it", "input", "coefficient (per unit of input)"],
            report.associations.map { line in
                [
                    HTMLPage.Cell(line.sentence), HTMLPage.Cell(line.input),
                    HTMLPage.Cell(String(format: "%+.4f", line.perUnit), numeric: true),
                ]
            })
    }

    private func history(_ page: inout HTMLPage) {
        page.heading(2, "Model history", id: "history")
        guard !report.history.isEmpty else {
            page.paragraph("No model has been trained for this person yet.")
            return
        }
        page.table(
            ["trained", "data through", "model", "promoted", "why"],
            report.history.map { entry in
                [
                    HTMLPage.Cell(ISO8601Instant.string(from: entry.trainedAt)),
                    HTMLPage.Cell(entry.asOfDay.adding(days: -1).description), HTMLPage.Cell(entry.source),
                    HTMLPage.Cell(entry.serving ? "yes, serving" : entry.promoted ? "yes" : "no"),
                    HTMLPage.Cell(entry.reason),
                ]
            })
    }

    private func notes(_ page: inout HTMLPage) {
        guard !report.notes.isEmpty else { return }
        page.heading(2, "Notes", id: "notes")
        page.table(
            ["day", "note"], report.notes.map { [HTMLPage.Cell($0.day.description), HTMLPage.Cell($0.text)] })
    }

    static func fieldName(_ field: Field) -> String {
        switch field {
        case .hrv: "heart-rate variability"
        case .restingHeartRate: "resting heart rate"
        case .stepCount: "steps"
        case .sleepDuration: "sleep"
        case .symptomSeverity: "severity"
        case .mood: "mood"
        case .energy: "energy"
        }
    }
}
