import Domain
import Foundation
import PipelineKit

/// `pipeline generate`: a synthetic cohort with a known ground truth.
enum GenerateCommand: Command {
    static let spec = CommandSpec(
        name: "generate",
        abstract: "Print a synthetic cohort as JSON Lines, with known per-user coefficients.",
        discussion: """
            Each user's next-day symptom severity depends on the day's sleep, HRV, steps and \
            severity through per-user coefficients plus noise. The data ends the day before each \
            user's today (by --now) and has what real input has: missing days, days with only \
            health or only a user entry, metrics given by both the user and health, watch items of \
            both kinds, and users in time zones from UTC-10 to UTC+14. The same seed always prints \
            the same bytes.
            """,
        options: [
            .option("users", .integer(1...1_000_000), help: "How many users.", default: "100"),
            .option("days", .integer(1...36_500), help: "How many days per user.", default: "365"),
            .option("seed", .integer(0...Int.max), help: "The random seed.", default: "1"),
            .option(
                "truth", valueName: "file", help: "Also write each user's generating coefficients here, as JSON Lines."),
        ],
        examples: [
            Example(
                "A year of 1,000 users into a database", "pipeline generate --users 1000 --days 365 | pipeline ingest -"
            )
        ])

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let generator = CohortGenerator(
            users: context.arguments.int("users")!, days: context.arguments.int("days")!,
            seed: UInt64(context.arguments.int("seed")!), now: context.clock.now)
        if let path = context.arguments.string("truth") {
            let text = generator.truths().map { $0.jsonText + "\n" }.joined()
            do {
                try text.write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                throw CLIError.cannotOpen(path: path, reason: "\(error.localizedDescription)")
            }
        }
        let stdout = context.io.stdout
        generator.generate { chunk in
            if !stdout.isClosed { stdout.write(chunk) }
        }
        return .ok
    }
}
