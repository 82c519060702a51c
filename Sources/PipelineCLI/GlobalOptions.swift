/// The options every command accepts, before or after its name: `pipeline --db x.sqlite status`
/// and `pipeline status --db x.sqlite` mean the same.
enum GlobalOptions {
    static let specs: [OptionSpec] = [
        .option(
            "db", valueName: "path", help: "The database: an SQLite file, or a postgresql:// URL.",
            default: "./pipeline.sqlite", environment: "PIPELINE_DB"),
        .option(
            "now", .instant,
            help: "Run as if the clock read this instant (ISO 8601, e.g. 2026-03-01T08:00:00Z). "
                + "Without it, the machine's clock."),
        .flag("json", help: "Print results as JSON instead of text."),
        .flag("help", short: "h", help: "Show help."),
    ]

    /// Accepted only before a command: `pipeline --version`.
    static let version = OptionSpec.flag("version", help: "Print the version of pipeline.")

    /// The options accepted before the command name.
    static var rootSpecs: [OptionSpec] { specs + [version] }
}
