import Domain

/// The `LogSink` commands hand to libraries: one line per message on standard error, prefixed with
/// its level. Warnings and errors only, unless `PIPELINE_LOG` asks for more, because cron mails
/// whatever a job prints (DESIGN §7: silent on success).
struct StandardErrorLog: LogSink {
    static let environmentVariable = "PIPELINE_LOG"

    let writer: OutputWriter
    let minimumLevel: LogLevel

    init(writer: OutputWriter, minimumLevel: LogLevel) {
        self.writer = writer
        self.minimumLevel = minimumLevel
    }

    /// The level `PIPELINE_LOG` names (`debug`, `info`, `warning`, `error`, any case); `warning`
    /// when unset or unrecognised.
    init(writer: OutputWriter, environment: [String: String]) {
        let name = environment[Self.environmentVariable]?.lowercased()
        let level = [LogLevel.debug, .info, .warning, .error].first { $0.description == name }
        self.init(writer: writer, minimumLevel: level ?? .warning)
    }

    func log(_ level: LogLevel, _ message: String) {
        guard level >= minimumLevel else { return }
        writer.writeLine("\(level): \(message)")
    }
}
