import Domain
import Foundation
import PipelineKit
import Storage
import TestSupport
import Testing

@Suite("The outbox")
struct OutboxTests {
    @Test("one message per user, kind and day: a second post is refused and the first kept", arguments: TestBackend.all)
    func uniquePerUserKindDay(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let pipeline = try await database.open()
        let store = pipeline.store
        let message = NewOutboxMessage(
            user: .literal("ada"), kind: "log-reminder", day: .literal("2026-03-15"), body: "first")
        #expect(try await store.post(message) != nil)
        var again = message
        again.body = "second"
        #expect(try await store.post(again) == nil)
        // Another day, another kind, another user: each is its own message.
        var otherDay = message
        otherDay.day = .literal("2026-03-16")
        var otherKind = message
        otherKind.kind = "weekly-insight"
        var otherUser = message
        otherUser.user = .literal("bob")
        for different in [otherDay, otherKind, otherUser] {
            #expect(try await store.post(different) != nil)
        }
        let messages = try await pipeline.outbox()
        #expect(messages.count == 4)
        #expect(messages.first?.body == "first")
    }

    @Test(
        "acknowledged messages leave the list; acknowledging twice or an unknown id changes nothing",
        arguments: TestBackend.all)
    func acknowledge(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let pipeline = try await database.open()
        var ids: [Int64] = []
        for day in ["2026-03-14", "2026-03-15"] {
            let id = try await pipeline.store.post(
                NewOutboxMessage(user: .literal("ada"), kind: "log-reminder", day: .literal(day), body: "Log today"))
            ids.append(try #require(id))
        }
        database.clock.advance(by: 60)
        let first = try await pipeline.acknowledgeOutbox([ids[0], 999])
        #expect(first == [ids[0]: .acknowledged, 999: .unknown])
        #expect(try await pipeline.acknowledgeOutbox([ids[0]]) == [ids[0]: .alreadyAcknowledged])
        #expect(try await pipeline.outbox().map(\.id) == [ids[1]])
        let all = try await pipeline.outbox(includeAcknowledged: true)
        #expect(all.map(\.id) == ids)
        #expect(all.first?.acknowledgedAt == database.clock.now)
    }
}
