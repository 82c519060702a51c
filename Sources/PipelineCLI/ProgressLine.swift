import Domain
import Foundation
import PipelineKit
import Scheduling

/// A long command's progress on standard error — what is done of how much, the rate and the time left,
/// redrawn in place — and its one-line summary at the end. Drawn only when standard error is a terminal:
/// under cron, which mails whatever a job prints, a command stays silent (DESIGN §7).
///
/// Safe to update from any task; it redraws at most ten times a second, so a worker reporting every user
/// costs a lock and a clock reading.
final class ProgressLine: Sendable {
    /// What is counted, singular and plural: "user"/"users", "MB".
    struct Unit: Sendable {
        var one: String
        var many: String
        /// Counts are divided by this to be shown (bytes as megabytes), with one decimal when it is not 1.
        var divisor = 1

        static let users = Unit(one: "user", many: "users")
        static let rows = Unit(one: "row", many: "rows")
        static let megabytes = Unit(one: "MB", many: "MB", divisor: 1_000_000)

        func callAsFunction(_ count: Int) -> String { count == 1 && divisor == 1 ? one : many }

        /// A count in this unit: "1,234", or "12.5" for megabytes.
        func amount(_ count: Int) -> String {
            divisor == 1 ? ProgressLine.count(count) : String(format: "%.1f", Double(count) / Double(divisor))
        }
    }

    private struct State {
        var done = 0
        var total: Int?
        var detail = ""
        var drawnAt: ContinuousClock.Instant?
        var drawn = false
    }

    private let writer: OutputWriter
    private let label: String
    private let unit: Unit
    private let started = ContinuousClock.now
    private let state = Locked(State())
    static let redrawInterval: Duration = .milliseconds(100)

    /// A progress line on `io`'s standard error, or `nil` when it is not a terminal.
    init?(_ io: CommandIO, label: String, unit: Unit) {
        guard io.isTerminal else { return nil }
        writer = io.stderr
        self.label = label
        self.unit = unit
    }

    /// How long the command has run.
    var elapsed: Duration { started.duration(to: .now) }

    /// Sets what is done of `total` (`nil`: not known), with an optional word on the part under way, and
    /// redraws when the last drawing is old enough (or `force`).
    func update(done: Int, total: Int?, detail: String = "", force: Bool = false) {
        let now = ContinuousClock.now
        let line: String? = state.withLock { state in
            state.done = done
            state.total = total
            state.detail = detail
            if !force, let drawnAt = state.drawnAt, drawnAt.duration(to: now) < Self.redrawInterval { return nil }
            state.drawnAt = now
            state.drawn = true
            return text(done: done, total: total, detail: detail, elapsed: started.duration(to: now))
        }
        if let line { writer.write("\r\u{1B}[K" + line) }
    }

    /// Adds `count` to what is done.
    func advance(by count: Int = 1) {
        let (done, total, detail) = state.withLock { ($0.done + count, $0.total, $0.detail) }
        update(done: done, total: total, detail: detail)
    }

    /// Clears the line and prints `summary` (if any) in its place, on a line of its own.
    func finish(_ summary: String? = nil) {
        let drawn = state.withLock { $0.drawn }
        if drawn { writer.write("\r\u{1B}[K") }
        if let summary { writer.writeLine(summary) }
    }

    /// "retraining: 412/1,000 users (41%), 83 users/s, 7 s left".
    func text(done: Int, total: Int?, detail: String, elapsed: Duration) -> String {
        let seconds = elapsed.timeInterval
        var line = "\(label): \(unit.amount(done))"
        if let total, total > 0 {
            line += "/\(unit.amount(total)) \(unit(total)) (\(min(100, done * 100 / total))%)"
        } else {
            line += " \(unit(done))"
        }
        if !detail.isEmpty { line += " " + detail }
        if seconds >= 0.5, done > 0 {
            let rate = Double(done) / seconds
            line += ", " + Self.rate(rate / Double(unit.divisor)) + " \(unit.many)/s"
            if let total, total > done {
                line += ", " + Self.duration(Double(total - done) / rate) + " left"
            }
        }
        return line
    }

    /// 1,234,567.
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return (value < 0 ? "-" : "") + grouped
    }

    static func rate(_ value: Double) -> String {
        value >= 100 ? count(Int(value.rounded())) : String(format: value >= 10 ? "%.0f" : "%.1f", value)
    }

    /// "8 s", "3 min 20 s", "1 h 5 min".
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "?" }
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min \(whole % 60) s" }
        return "\(whole / 3600) h \(whole % 3600 / 60) min"
    }

    /// "9.8 s", "2 min 13 s": how long a finished command took, for its summary.
    static func took(_ elapsed: Duration) -> String {
        let seconds = elapsed.timeInterval
        return seconds < 60 ? String(format: "%.1f s", seconds) : duration(seconds)
    }
}

extension ProgressLine {
    /// Runs a launch from the command line with its runs counted on a progress line (on a terminal), cleared
    /// when the launch returns or throws; returns the line for the command's summary.
    static func launch(
        _ options: LaunchOptions, label: String, unit: Unit, pipeline: Pipeline, context: CommandContext
    ) async throws -> (report: LaunchReport, progress: ProgressLine?) {
        var options = options
        let progress = ProgressLine(context.io, label: label, unit: unit)
        if let progress { options.progress = { progress.update(done: $0.finished, total: $0.due) } }
        do {
            return (try await SchedulerLaunch.launch(options, pipeline: pipeline, context: context), progress)
        } catch {
            progress?.finish()
            throw error
        }
    }
}
