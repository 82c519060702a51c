import PipelineKit

/// `pipeline init`: creates the database explicitly, where no other command but ingestion would.
enum InitCommand: Command {
    static let spec = CommandSpec(
        name: "init",
        abstract: "Create the database (or bring an existing one to this version's schema).",
        discussion: """
            Creates the database at --db (an SQLite file, mode 0600, or the tables in a PostgreSQL \
            database) and prints where and at which schema version. Only this command and \
            'pipeline ingest' create a database: every other command refuses a path where there \
            is none, so a mistyped --db is an error instead of a new, empty database. Run on an \
            existing database, it applies any migrations this version brings and changes nothing \
            else.
            """,
        examples: [
            Example("Create the database cron will use", "pipeline init --db /srv/pipeline/pipeline.sqlite")
        ])

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let pipeline = try await Pipeline.open(path: context.databasePath, clock: context.clock, log: context.log)
        let schema = try await pipeline.schemaVersion()
        context.io.stdout.writeLine("\(pipeline.location) (schema \(schema))")
        return .ok
    }
}
