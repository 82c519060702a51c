import Domain
import Foundation
import TestSupport
import Testing

@testable import Storage

/// A scope's model history (DESIGN §5): saving keeps the newest `Store.modelHistoryLimit` artifacts
/// and the one serving, however old, and a promotion serves the new artifact in the same step.
@Suite("Model history")
struct ModelHistoryTests {
    static func model(_ index: Int, promoted: Bool) -> StoredModel {
        StoredModel(
            scope: "ada", specVersion: 1, source: "personal", asOfDay: .literal("2026-03-01"),
            trainedAt: Date(iso: "2026-03-01T03:00:00Z") + Double(index) * 86_400, promoted: promoted,
            reason: "run \(index)", designFingerprint: nil, json: "{\"run\":\(index)}")
    }

    @Test(
        "the newest artifacts and the serving one are kept; a promotion lets the old serving one go",
        arguments: TestBackend.all)
    func boundedHistoryKeepsTheServedModel(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        let limit = Store.modelHistoryLimit
        let first = try await store.save(Self.model(0, promoted: true))
        for index in 1...(limit + 5) { try await store.save(Self.model(index, promoted: false)) }
        // The first artifact still serves, so it stays beside the newest `limit`.
        var history = try await store.modelHistory(scope: "ada", limit: 1_000)
        #expect(history.count == limit + 1)
        #expect(history.map(\.reason).prefix(limit) == ArraySlice((6...(limit + 5)).reversed().map { "run \($0)" }))
        #expect(history.last?.id == first)
        #expect(try await store.servingModel(scope: "ada")?.id == first)
        // A new promoted artifact serves at once, and the first one, no longer served, is pruned.
        let promoted = try await store.save(Self.model(limit + 6, promoted: true))
        #expect(try await store.servingModel(scope: "ada")?.id == promoted)
        history = try await store.modelHistory(scope: "ada", limit: 1_000)
        #expect(history.count == limit)
        #expect(history.first?.id == promoted)
        #expect(!history.contains { $0.id == first })
        // Not promoted, the newest artifact is kept in the history and the promoted one keeps serving.
        let kept = try await store.save(Self.model(limit + 7, promoted: false))
        #expect(try await store.servingModel(scope: "ada")?.id == promoted)
        #expect(try await store.modelHistory(scope: "ada", limit: 1).first?.id == kept)
        #expect(try await store.modelHistory(scope: "ada", limit: 1_000).count == limit)
    }

    /// PostgreSQL compresses artifacts with LZ4 (Schema/PostgreSQL/0012_artifact_compression.sql): what was
    /// saved reads back as it was written.
    @Test("on PostgreSQL an artifact is compressed with LZ4 and reads back byte for byte", .postgreSQL)
    func compressedArtifact() async throws {
        let database = TestDatabase(.postgresql)
        let store = try Store(path: database.path, clock: database.clock)
        // About an artifact's size, with the repetition of its field names and little else to compress.
        let values = (0..<400).map { "{\"name\":\"feature_\($0)\",\"mean\":\(Double($0) * 0.137)}" }
        var model = Self.model(1, promoted: true)
        model.json = "{\"features\":[" + values.joined(separator: ",") + "]}"
        try await store.save(model)

        #expect(try await store.servingModel(scope: "ada")?.json == model.json)
        let connection = try PostgreSQLConnection(url: database.path)
        let method = try connection.query(
            "SELECT pg_column_compression(artifact) FROM model_artifacts WHERE scope = 'ada'")
        #expect(method.count == 1 && method.string(0, 0) == "lz4")
    }
}
