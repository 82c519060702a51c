/// The tables `pipeline copy` moves between databases, in an order that inserts every row after
/// the rows it references (users before their logs, artifacts before the serving models that name
/// them). Each table's columns, keys and value kinds are defined here once; both drivers build
/// their SQL from them, so a copy reads and writes the same columns on either side.
///
/// Table and column names come only from this table, never from input: the SQL built from them is
/// safe to prepare without binding, and every value is still a bound parameter.
public enum CopyTable: String, Sendable, Hashable, CaseIterable {
    case users
    case dailyLogs = "daily_logs"
    case userSettings = "user_settings"
    case watchItems = "watch_items"
    case watchDeadLetters = "watch_dead_letters"
    case taskRequests = "task_requests"
    case discardedTaskRequests = "discarded_task_requests"
    case taskRuns = "task_runs"
    case latestTaskRuns = "latest_task_runs"
    case schedulerLaunches = "scheduler_launches"
    case outbox
    case modelArtifacts = "model_artifacts"
    case servingModels = "serving_models"
    case evaluations

    /// What a column holds, which decides how each driver reads and writes it.
    public enum ColumnKind: Sendable, Hashable {
        case integer
        case real
        case text
        /// 0 or 1: an INTEGER on SQLite, a BOOLEAN on PostgreSQL; `CopyValue.integer` on the wire.
        case boolean
        /// JSON text, copied verbatim: TEXT on SQLite, JSON on PostgreSQL; `CopyValue.text`.
        case json
        /// A day, `YYYY-MM-DD`: TEXT on SQLite, DATE on PostgreSQL; `CopyValue.text`.
        case day
    }

    public struct Column: Sendable, Hashable {
        public let name: String
        public let kind: ColumnKind

        init(_ name: String, _ kind: ColumnKind) {
            self.name = name
            self.kind = kind
        }
    }

    /// The table's name in SQL (the same on every backend).
    public var name: String { rawValue }

    /// Every column of the table, in the order of a row's values.
    public var columns: [Column] {
        switch self {
        case .users:
            [Column("id", .text), Column("time_zone", .text), Column("created_at", .integer)]
        case .dailyLogs:
            [
                Column("user_id", .text), Column("day", .day), Column("symptom_severity", .integer),
                Column("mood", .integer), Column("energy", .integer), Column("notes", .text), Column("hrv", .real),
                Column("hrv_source", .text), Column("resting_heart_rate", .real),
                Column("resting_heart_rate_source", .text), Column("step_count", .integer),
                Column("step_count_source", .text), Column("sleep_duration", .real),
                Column("sleep_duration_source", .text), Column("updated_at", .integer),
            ]
        case .userSettings:
            [Column("user_id", .text), Column("key", .text), Column("value", .json), Column("updated_at", .integer)]
        case .watchItems:
            Self.watchItemColumns + [Column("occurrence", .integer)]
        case .watchDeadLetters:
            Self.watchItemColumns + [
                Column("failed_at", .integer), Column("resolved_at", .integer), Column("requeued_as", .integer),
            ]
        case .taskRequests:
            [Column("id", .integer)] + Self.requestColumns + [
                Column("lease_owner", .text), Column("lease_expires_at", .integer), Column("claimed_at", .integer),
                Column("last_error", .text),
            ]
        case .discardedTaskRequests:
            [Column("id", .integer), Column("request_id", .integer)] + Self.requestColumns + [
                Column("last_error", .text), Column("cause", .text), Column("discarded_at", .integer),
            ]
        case .schedulerLaunches:
            [Column("id", .integer), Column("launched_at", .integer), Column("worker", .text)]
        case .taskRuns:
            [
                Column("id", .integer), Column("request_id", .integer), Column("identifier", .text),
                Column("scope", .text),
            ] + Self.runColumns
        case .latestTaskRuns:
            [
                Column("identifier", .text), Column("scope", .text), Column("run_id", .integer),
                Column("request_id", .integer),
            ] + Self.runColumns + [Column("last_success_at", .integer)]
        case .outbox:
            [
                Column("id", .integer), Column("user_id", .text), Column("kind", .text), Column("day", .day),
                Column("body", .text), Column("created_at", .integer), Column("acknowledged_at", .integer),
            ]
        case .modelArtifacts:
            [
                Column("id", .integer), Column("scope", .text), Column("spec_version", .integer),
                Column("source", .text), Column("as_of_day", .text), Column("trained_at", .integer),
                Column("promoted", .boolean), Column("reason", .text), Column("design_fingerprint", .text),
                Column("artifact", .json),
            ]
        case .servingModels:
            [Column("scope", .text), Column("artifact_id", .integer), Column("promoted_at", .integer)]
        case .evaluations:
            [
                Column("id", .integer), Column("evaluated_at", .integer), Column("first_day", .text),
                Column("last_day", .text), Column("days", .integer), Column("result", .json),
            ]
        }
    }

    /// A watch item's columns, which a dead letter keeps as they were.
    private static let watchItemColumns = [
        Column("id", .integer), Column("user_id", .text), Column("kind", .text), Column("payload", .json),
        Column("enqueued_at", .integer), Column("attempts", .integer), Column("last_error", .text),
    ]

    /// A request's columns after its keys, which a discarded request keeps as they were.
    private static let requestColumns = [
        Column("identifier", .text), Column("scope", .text), Column("kind", .text),
        Column("earliest_begin_at", .integer), Column("requires_external_power", .boolean),
        Column("requires_network", .boolean), Column("submitted_at", .integer), Column("attempts", .integer),
    ]

    /// A run's columns after its keys, shared by the run history and each task's latest run.
    private static let runColumns = [
        Column("kind", .text), Column("attempt", .integer), Column("worker", .text), Column("started_at", .integer),
        Column("lease_expires_at", .integer), Column("finished_at", .integer), Column("outcome", .text),
        Column("reason", .text), Column("successor_pending", .boolean), Column("periods", .integer),
    ]

    /// The primary key's columns: a copy pages through the table in their order.
    public var keyColumns: [String] {
        switch self {
        case .users: ["id"]
        case .dailyLogs: ["user_id", "day"]
        case .userSettings: ["user_id", "key"]
        case .servingModels: ["scope"]
        case .latestTaskRuns: ["identifier", "scope"]
        case .watchItems, .watchDeadLetters, .taskRequests, .discardedTaskRequests, .taskRuns, .schedulerLaunches,
            .outbox, .modelArtifacts, .evaluations:
            ["id"]
        }
    }

    /// The key of `row`, to pass as `after` for the next page.
    public func key(of row: [CopyValue]) -> [CopyValue] {
        let names = columns.map(\.name)
        return keyColumns.map { key in row[names.firstIndex(of: key)!] }
    }

    /// Ids a new row of this table must never take again, where the database hands them out (an
    /// identity on PostgreSQL): the table's own ids, and the columns elsewhere that carry one of
    /// them after its row is gone — a dead letter keeps its watch item's id, a run its request's.
    /// `nil` for a table whose key pipeline chooses.
    var issuedIDs: [(table: CopyTable, column: String)]? {
        switch self {
        case .watchItems: [(.watchItems, "id"), (.watchDeadLetters, "id"), (.watchDeadLetters, "requeued_as")]
        case .taskRequests:
            [
                (.taskRequests, "id"), (.taskRuns, "request_id"), (.latestTaskRuns, "request_id"),
                (.discardedTaskRequests, "request_id"),
            ]
        case .discardedTaskRequests: [(.discardedTaskRequests, "id")]
        case .taskRuns: [(.taskRuns, "id"), (.latestTaskRuns, "run_id")]
        case .outbox: [(.outbox, "id")]
        case .modelArtifacts: [(.modelArtifacts, "id")]
        case .evaluations: [(.evaluations, "id")]
        case .users, .dailyLogs, .userSettings, .watchDeadLetters, .latestTaskRuns, .schedulerLaunches, .servingModels:
            nil
        }
    }
}

/// One value of a copied row, as both drivers read and write it: booleans are `integer` 0 or 1,
/// JSON is `text` exactly as stored, timestamps are `integer` milliseconds.
public enum CopyValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
}
