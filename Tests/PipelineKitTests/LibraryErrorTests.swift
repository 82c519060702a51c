import Foundation
import PipelineKit
import TestSupport
import Testing

/// A library user has no --db, no PIPELINE_DB and no `pipeline` command: the library's errors name the path or
/// parameter they are about, and say what kind of failure they are, and the words of the command line are
/// added by the CLI alone. (The README's example, given a path whose folder did not exist, died with "Check
/// the path (--db or PIPELINE_DB)".)
@Suite("The library's errors speak of paths and parameters")
struct LibraryErrorTests {
    static let commandLineWords = ["--db", "PIPELINE_DB", "--strict", "--user", "pipeline init", "pipeline retrain"]

    static func description(_ body: () async throws -> Void) async -> PipelineError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? PipelineError
        }
    }

    @Test("a path in a folder that does not exist, no database at a path, a model not trained yet")
    func messages() async throws {
        let directory = TemporaryDirectory()
        let missingFolder = directory.path("no/such/folder/pipeline.sqlite")
        let cannotOpen = try #require(await Self.description { _ = try await Pipeline.open(path: missingFolder) })
        #expect(cannotOpen.description.contains(missingFolder) && cannotOpen.isConfiguration)
        let typo = directory.path("typo.sqlite")
        let none = try #require(await Self.description { _ = try await Pipeline.openExisting(path: typo) })
        #expect(none.description.contains("there is no database at \(typo)") && none.isConfiguration)
        let pipeline = try await Pipeline.open(path: directory.path("p.sqlite"))
        try await pipeline.ingest(.user(UserUpdate(id: UserID("ada")!, timeZone: nil)))
        let untrained = try #require(
            await Self.description {
                _ = try await PersonalModels(pipeline: pipeline).lastFitDesign(user: UserID("ada")!)
            })
        for error in [cannotOpen, none, untrained] {
            for word in Self.commandLineWords {
                #expect(!error.description.contains(word), "\(error.description)")
            }
        }
    }
}
