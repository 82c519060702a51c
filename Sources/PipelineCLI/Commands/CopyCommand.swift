import Domain
import Foundation
import PipelineKit
import Storage

/// `pipeline copy --from SRC --to DST`: a whole database into an empty one, between SQLite and
/// PostgreSQL in either direction (or between two of a kind), keeping every id.
enum CopyCommand: Command {
    static let spec = CommandSpec(
        name: "copy",
        abstract: "Copy a whole database into an empty one, between SQLite and PostgreSQL.",
        discussion: """
            Copies everything, keeping ids so that references hold: users, daily logs with the \
            source of each metric, settings, queued watch items and dead letters, task requests \
            with their state (leases, attempts, due dates), run history, outbox messages with \
            their acknowledgements, model artifacts and which one each user is served. A database \
            is an SQLite file path or a postgresql:// URL; both are migrated to this version's \
            schema first. The global --db is not used.

            The target must be empty: if any table holds a row, the copy is refused, nothing is \
            changed, and the status is 65. A missing SQLite source is refused without creating \
            it. The source is read in one snapshot, so workers may go on using it (what they \
            write after the copy began is not copied); the target is written in one transaction, so a copy that fails, is killed or crashes leaves it as \
            empty as it was and can simply be run again. On PostgreSQL, new rows after the copy \
            get ids past the copied ones.

            Prints the rows copied per table (counts only); with --json, one object: "from", \
            "to", "tables" (name: rows) and "total". Passwords in URLs are shown as ***.
            """,
        options: [
            .option(
                "from", valueName: "database", help: "The database to copy: an SQLite file or a postgresql:// URL.",
                required: true),
            .option(
                "to", valueName: "database",
                help: "The empty database to copy into: an SQLite file (created if absent) or a postgresql:// URL.",
                required: true),
            .option(
                "page-size", .integer(1...100_000), help: "Rows read and written at a time.", default: "5000"),
        ],
        examples: [
            Example(
                "Move an SQLite database to PostgreSQL",
                "pipeline copy --from pipeline.sqlite --to postgresql://db.internal/pipeline"),
            Example(
                "Bring a PostgreSQL database back into a new SQLite file",
                "pipeline copy --from postgresql://db.internal/pipeline --to copy.sqlite"),
        ])

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let from = context.arguments.string("from")!
        let to = context.arguments.string("to")!
        let copy = try DatabaseCopy(from: from, to: to, clock: context.clock)
        guard copy.from != copy.to else {
            throw CLIError.usage("--from and --to name the same database (\(copy.from))")
        }
        // Rows of the tables done before the one being copied, for the running total.
        let progress = ProgressLine(context.io, label: "copying", unit: .rows)
        var report: (@Sendable (CopyTable, Int) -> Void)?
        var counted: (@Sendable (Int) -> Void)?
        if let progress {
            let tables = CopyTable.allCases
            let before = Locked((table: tables[0], rows: 0, last: 0))
            let total = Locked<Int?>(nil)
            counted = { rows in
                total.withLock { $0 = rows }
                progress.update(done: 0, total: rows, detail: "(table 1 of \(tables.count): \(tables[0].name))")
            }
            report = { table, rows in
                let done: Int = before.withLock { state in
                    if state.table != table {
                        state = (table, state.rows + state.last, 0)
                    }
                    state.last = rows
                    return state.rows + rows
                }
                let number = (tables.firstIndex(of: table) ?? 0) + 1
                progress.update(
                    done: done, total: total.withLock { $0 },
                    detail: "(table \(number) of \(tables.count): \(table.name))")
            }
        }
        let copied: [CopiedTable]
        do {
            copied = try await copy.run(
                pageSize: context.arguments.int("page-size")!, progress: report, counted: counted)
        } catch {
            progress?.finish()
            throw error
        }
        let total = copied.reduce(0) { $0 + $1.rows }
        progress?.finish(
            progress.map {
                "copied \(ProgressLine.count(total)) \(ProgressLine.Unit.rows(total)) of \(copied.count) tables in "
                    + ProgressLine.took($0.elapsed)
            })
        if context.json {
            context.io.stdout.writeLine(json(copied, from: copy.from, to: copy.to).jsonText)
        } else {
            context.io.stdout.write(text(copied, from: copy.from, to: copy.to))
        }
        return .ok
    }

    static func text(_ copied: [CopiedTable], from: String, to: String) -> String {
        let width = CopyTable.allCases.map(\.name.count).max() ?? 0
        let total = copied.reduce(0) { $0 + $1.rows }
        let numbers = (copied.map(\.rows) + [total]).map { String($0).count }.max() ?? 1
        func line(_ name: String, _ rows: Int) -> String {
            let count = String(rows)
            return name.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + String(repeating: " ", count: numbers - count.count) + count
        }
        var lines = ["from  \(from)", "to    \(to)"]
        lines += copied.map { line($0.table.name, $0.rows) }
        lines.append(line("total", total))
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ copied: [CopiedTable], from: String, to: String) -> JSONValue {
        var tables = JSONObject()
        for entry in copied {
            tables[entry.table.name] = .number(Double(entry.rows))
        }
        return .object([
            "from": .string(from),
            "to": .string(to),
            "tables": .object(tables),
            "total": .number(Double(copied.reduce(0) { $0 + $1.rows })),
        ])
    }
}
