import Domain
import Foundation
import TestSupport
import Testing

@testable import Storage

/// A stored zone the machine cannot resolve is an error naming the user and the zone, on every
/// read of users, never UTC (DESIGN §4): read as UTC, a Sydney user's days would shift by half a
/// day and their reminders would come in the middle of the night.
@Suite("Stored time zones")
struct UserTimeZoneTests {
    static func isUnknownZone(_ error: any Error) -> Bool {
        guard case StorageError.unknownTimeZone(let user, let zone) = error else { return false }
        let message = String(describing: error)
        return user == "ada" && zone == "Mars/Olympus_Mons" && message.contains("user ada")
            && message.contains("'Mars/Olympus_Mons'") && message.contains("pipeline ingest")
    }

    @Test(
        "a zone that no longer resolves fails every read of the user with a message naming both",
        arguments: TestBackend.all)
    func unknownZone(backend: TestBackend) async throws {
        let database = TestDatabase(backend)
        let store = try Store(path: database.path, clock: database.clock)
        try await store.save(User(id: .literal("ada"), timeZone: TimeZone.iana("Australia/Sydney")!))
        try await store.save(User(id: .literal("bob"), timeZone: TimeZone.iana("Asia/Kolkata")!))
        // What a tzdata that dropped the name, or a hand edit, leaves behind.
        try await store.executeForTesting("UPDATE users SET time_zone = 'Mars/Olympus_Mons' WHERE id = 'ada'")

        await #expect(performing: { try await store.user(.literal("ada")) }, throws: Self.isUnknownZone)
        await #expect(performing: { try await store.users() }, throws: Self.isUnknownZone)
        await #expect(
            performing: { try await store.usersWithoutTaskRequest(identifier: "engagement-daily") },
            throws: Self.isUnknownZone)
        // The other user reads as stored, alias and all.
        #expect(try await store.user(.literal("bob"))?.timeZone.ianaName == "Asia/Kolkata")
    }
}
