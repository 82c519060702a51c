/// A schema migration shipped with this version: `Schema/SQLite/NNNN_name.sql`, embedded into the binary.
public struct EmbeddedMigration: Sendable {
    public let version: Int
    public let name: String
    public let sql: String
}

/// Every migration this version ships, in order. (The generated accessor replaces the leading digit
/// of a file name with an underscore: `0001_x.sql` is `_001_x_sql`.) A shipped migration is never edited; a change to
/// the schema is a new file here (Package.swift embeds every `.sql` of the folder) and a new line below, and the same
/// in Schema/PostgreSQL: `MigrationTests` fails until the files and both lists agree.
public let sqliteMigrations: [EmbeddedMigration] = [
    EmbeddedMigration(version: 1, name: "daily_log", sql: text(PackageResources._001_daily_log_sql)),
    EmbeddedMigration(version: 2, name: "watch_queue", sql: text(PackageResources._002_watch_queue_sql)),
    EmbeddedMigration(version: 3, name: "scheduler", sql: text(PackageResources._003_scheduler_sql)),
    EmbeddedMigration(version: 4, name: "outbox", sql: text(PackageResources._004_outbox_sql)),
    EmbeddedMigration(version: 5, name: "models", sql: text(PackageResources._005_models_sql)),
    EmbeddedMigration(version: 6, name: "claim_order", sql: text(PackageResources._006_claim_order_sql)),
    EmbeddedMigration(version: 7, name: "operations", sql: text(PackageResources._007_operations_sql)),
    EmbeddedMigration(
        version: 8, name: "watch_item_identity", sql: text(PackageResources._008_watch_item_identity_sql)),
    EmbeddedMigration(version: 9, name: "evaluations", sql: text(PackageResources._009_evaluations_sql)),
    EmbeddedMigration(
        version: 10, name: "watch_identity_of_kept_items",
        sql: text(PackageResources._010_watch_identity_of_kept_items_sql)),
    EmbeddedMigration(
        version: 11, name: "days_user_check_per_statement",
        sql: text(PackageResources._011_days_user_check_per_statement_sql)),
    EmbeddedMigration(
        version: 12, name: "artifact_compression", sql: text(PackageResources._012_artifact_compression_sql)),
    EmbeddedMigration(version: 13, name: "claims_by_task", sql: text(PackageResources._013_claims_by_task_sql)),
    EmbeddedMigration(
        version: 14, name: "history_retention", sql: text(PackageResources._014_history_retention_sql)),
    EmbeddedMigration(
        version: 15, name: "open_runs_by_request", sql: text(PackageResources._015_open_runs_by_request_sql)),
    EmbeddedMigration(version: 16, name: "days_as_dates", sql: text(PackageResources._016_days_as_dates_sql)),
]

private func text(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self)
}
