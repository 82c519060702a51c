// swift-format-ignore-file
import UIKit

/// The task is kept in a property, and the function that begins it ends it on every path: a failed save ends it
/// before it returns.
final class ContactsStore {
    private var saveTask = UIBackgroundTaskIdentifier.invalid
    private var pending: [String: String] = [:]

    func saveIfNeeded() async {
        guard !pending.isEmpty else { return }
        saveTask = UIApplication.shared.beginBackgroundTask {
            UIApplication.shared.endBackgroundTask(self.saveTask)
            self.saveTask = .invalid
        }
        guard let revision = try? await Server.upload(pending) else {
            UIApplication.shared.endBackgroundTask(saveTask)
            saveTask = .invalid
            return
        }
        await Server.waitUntilApplied(revision)
        pending.removeAll()
        UIApplication.shared.endBackgroundTask(saveTask)
        saveTask = .invalid
    }
}

enum Server {
    static func upload(_ contacts: [String: String]) async throws -> Int { 1 }
    static func waitUntilApplied(_ revision: Int) async {}
}
