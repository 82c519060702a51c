public import Domain
import Foundation
import PipelineKit
import Scheduling

extension DeviceReport {
    /// The report as `pipeline simulate --device` prints it: a header naming the settings and the two
    /// apps, a table with one row per day, and one summary line per app.
    public var lines: [String] {
        var lines = [
            "Device simulation: \(device.days) day\(device.days == 1 ? "" : "s") from \(device.start) (UTC), "
                + "seed \(device.seed)",
            "Settings: " + settingsDescription,
        ]
        for (letter, style) in zip(Self.letters, LaunchStyle.allCases) {
            lines.append("\(letter) = \(style.rawValue): \(style.summary)")
        }
        lines.append("")

        var table = [
            ["day", "date", "opens", "charging"]
                + Self.letters.flatMap { ["\($0) launches", "\($0) runs", "\($0) retrain"] } + ["note"]
        ]
        for day in days {
            var row = ["\(day.number)", "\(day.date)", "\(day.opens)", chargingText(day.charging)]
            for app in day.apps {
                row += ["\(app.launches)", "\(app.runs)", "\(app.retrains)"]
            }
            row.append(notes(for: day).joined(separator: "; "))
            table.append(row)
        }
        lines += Self.render(table, leftAligned: [1, 3, table[0].count - 1])
        lines.append("")
        lines += apps.map(summary)
        return lines
    }

    /// The report as JSON Lines: the settings, one object per day, then one summary per app.
    public var jsonLines: [JSONObject] {
        var objects: [JSONObject] = [
            [
                "type": .string("device"), "days": .number(Double(device.days)), "start": .string("\(device.start)"),
                "seed": .number(Double(device.seed)),
                "forceQuitDay": device.forceQuitDay.map { .number(Double($0)) } ?? .null,
                "backgroundRefreshDenied": .bool(device.backgroundRefreshDenied),
                "lowPowerMode": .bool(device.lowPowerMode),
            ]
        ]
        for day in days {
            var apps = JSONObject()
            for (style, app) in zip(LaunchStyle.allCases, day.apps) {
                apps[style.key] = .object([
                    "launches": .number(Double(app.launches)), "refusedLaunches": .number(Double(app.refusedLaunches)),
                    "runs": .number(Double(app.runs)), "retrains": .number(Double(app.retrains)),
                    "failedRuns": .number(Double(app.failedRuns)),
                ])
            }
            objects.append([
                "type": .string("day"), "day": .number(Double(day.number)), "date": .string("\(day.date)"),
                "opens": .number(Double(day.opens)),
                "charging": day.charging.map { .object(["from": instant($0.start), "until": instant($0.end)]) }
                    ?? .null,
                "forceQuitAt": day.forceQuitAt.map(instant) ?? .null,
                "apps": .object(apps),
            ])
        }
        for app in apps {
            var runs = JSONObject()
            for task in PipelineTasks.identifiers {
                runs[task.rawValue] = .number(Double(app.successfulRuns(of: task).count))
            }
            objects.append([
                "type": .string("summary"), "app": .string(app.style.key),
                "retrainDays": .number(Double(retrainDays(app.style).count)), "days": .number(Double(device.days)),
                "runs": .object(runs),
                "failedRuns": .number(Double(app.history.count - app.successfulRuns().count)),
                "launches": .number(Double(app.launches.count)),
                "refusedLaunches": .number(Double(app.refusedLaunches.count)),
                "neverSubmitted": .array(app.neverSubmitted.map { .string($0.rawValue) }),
                "remindersDelivered": .number(Double(app.remindersDelivered)),
                "interruptions": .array(
                    app.interruptions.map { .object(["at": instant($0.at), "cause": .string($0.cause.rawValue)]) }),
                "text": .string(summary(app)),
            ])
        }
        return objects
    }

    /// `with launch chain: ml-retrain ran 27 of 30 days; …`.
    func summary(_ app: AppResult) -> String {
        let retrainDays = retrainDays(app.style).count
        var text =
            "\(app.style.rawValue): \(PipelineTasks.mlRetrain) ran "
            + (retrainDays == 0 ? "0 times" : "\(retrainDays) of \(device.days) days")
        let runs = app.successfulRuns()
        text += "; \(runs.count) task run\(runs.count == 1 ? "" : "s") in \(app.launches.count) background launch"
        text += app.launches.count == 1 ? "" : "es"
        if !runs.isEmpty {
            let counts = PipelineTasks.identifiers.map { task in
                "\(task) \(runs.filter { $0.identifier == task }.count)"
            }
            text += " (" + counts.joined(separator: ", ") + ")"
        }
        let failed = app.history.count - runs.count
        if failed > 0 {
            text += "; \(failed) run\(failed == 1 ? "" : "s") failed"
        }
        if !app.interruptions.isEmpty {
            let causes = Dictionary(grouping: app.interruptions, by: \.cause)
                .sorted { $0.key.rawValue < $1.key.rawValue }
                .map { "\($0.value.count) by \($0.key.rawValue)" }
            text += "; \(app.interruptions.count) retrain\(app.interruptions.count == 1 ? "" : "s") ended early ("
            text += causes.joined(separator: ", ") + ")"
        }
        text += "; \(app.remindersDelivered) reminder\(app.remindersDelivered == 1 ? "" : "s") delivered"
        if !app.refusedLaunches.isEmpty {
            text +=
                "; \(app.refusedLaunches.count) launch\(app.refusedLaunches.count == 1 ? "" : "es") refused after the force-quit"
        }
        if !app.neverSubmitted.isEmpty {
            text += "; pipeline status: \(app.neverSubmitted.count) task\(app.neverSubmitted.count == 1 ? "" : "s") "
            text += "registered but never submitted"
        }
        return text
    }

    private static let letters = ["A", "B"]

    private var settingsDescription: String {
        var parts = [
            "usage of 0–3 visits a day, charging most nights",
            "Background App Refresh " + (device.backgroundRefreshDenied ? "denied" : "on"),
            "Low Power Mode " + (device.lowPowerMode ? "on" : "off"),
        ]
        parts.append(device.forceQuitDay.map { "force-quit on day \($0)" } ?? "no force-quit")
        return parts.joined(separator: ", ")
    }

    private func notes(for day: DayRow) -> [String] {
        var notes: [String] = []
        if let forceQuit = day.forceQuitAt {
            notes.append("force-quit at \(timeOfDay(forceQuit))")
        }
        if let forceQuit = forceQuitAt, let reopened = visits.first(where: { $0.start > forceQuit })?.start,
            dayNumber(of: reopened) == day.number
        {
            notes.append("opened at \(timeOfDay(reopened)): background launches allowed again")
        }
        for (letter, app) in zip(Self.letters, day.apps) where app.refusedLaunches > 0 {
            notes.append("\(letter): \(app.refusedLaunches) launch\(app.refusedLaunches == 1 ? "" : "es") refused")
        }
        for (letter, app) in zip(Self.letters, day.apps) where app.failedRuns > 0 {
            notes.append("\(letter): \(app.failedRuns) run\(app.failedRuns == 1 ? "" : "s") failed")
        }
        return notes
    }

    private func chargingText(_ window: DateInterval?) -> String {
        guard let window else { return "none" }
        return timeOfDay(window.start) + "–" + timeOfDay(window.end)
    }

    private func dayNumber(of instant: Date) -> Int {
        Int((instant.timeIntervalSince(startDate) / 86_400).rounded(.down)) + 1
    }

    /// `HH:MM` in UTC, the phone's time zone.
    private func timeOfDay(_ instant: Date) -> String {
        let seconds = Int(instant.timeIntervalSince(startDate).rounded(.down)) % 86_400
        return Self.pad(seconds / 3_600) + ":" + Self.pad(seconds / 60 % 60)
    }

    private func instant(_ date: Date) -> JSONValue {
        let seconds = Int(date.timeIntervalSince(startDate).rounded(.down))
        let day = device.start.adding(days: seconds / 86_400)
        return .string("\(day)T\(timeOfDay(date)):\(Self.pad(seconds % 60))Z")
    }

    private static func pad(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    /// Columns two spaces apart; numbers right-aligned, the columns in `leftAligned` left-aligned.
    /// The last column is never padded, so lines carry no trailing spaces.
    private static func render(_ rows: [[String]], leftAligned: Set<Int>) -> [String] {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            var line = row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                if column == row.count - 1 { return cell }
                return leftAligned.contains(column) ? cell + padding : padding + cell
            }.joined(separator: "  ")
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }
}
