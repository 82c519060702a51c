// swift-format-ignore-file
import UIKit

/// The task is kept in a property, and the function that begins it is the only one that ends it: when the save
/// fails, the `guard` returns before the end, and the task runs on until the expiration handler ends it.
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
            return // expect: unpaired-begin-background-task
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
