import Domain
import Learning
import PipelineKit
import Storage

/// `pipeline features --user U`: the design matrix and target of the user's last fit, as CSV.
enum FeaturesCommand: Command {
    static let spec = CommandSpec(
        name: "features",
        abstract: "Print the exact design matrix and target of a user's last fit, as CSV.",
        discussion: """
            The header is 'day', the feature names in column order, then 'target' (the day's symptom \
            severity). Rows are the fit's training days, with missing values already imputed as the \
            fit imputed them; features are not standardized (the model's standardization is in \
            'pipeline model'). The matrix is rebuilt from the logs the fit saw; if they changed since, \
            a warning says so.
            """,
        options: [.option("user", .user, help: "The user whose last fit to print.", required: true)],
        examples: [Example("Into a file for scikit-learn", "pipeline features --user alice > alice.csv")])

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let id = context.arguments.user("user")!
        let pipeline = try await context.openPipeline()
        let fit = try await PersonalModels(pipeline: pipeline).lastFitDesign(user: id)
        if !fit.dataUnchanged {
            context.log.log(
                .warning,
                "the logs of '\(id)' before \(fit.stored.asOfDay) changed after the fit; this is the matrix the same fit "
                    + "would use now")
        }
        context.io.stdout.write(fit.design.csv())
        return .ok
    }
}
