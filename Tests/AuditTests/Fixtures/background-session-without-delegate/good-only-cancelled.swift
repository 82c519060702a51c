// swift-format-ignore-file
import Foundation

/// Sessions of uploads the app no longer tracks are rejoined only to cancel what is left of them: no task is ever
/// made on them, so there are no results a delegate would have to receive.
final class StaleUploadCleaner {
    func cancelStaleSessions(_ identifiers: [String]) {
        for identifier in identifiers {
            let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
            let session = URLSession(configuration: configuration, delegate: nil, delegateQueue: nil)
            session.invalidateAndCancel()
        }
    }

    func cancelSession(_ identifier: String) {
        URLSession(configuration: .background(withIdentifier: identifier)).invalidateAndCancel()
    }

    /// Counts what was still running, then cancels it all.
    func drainSession(_ identifier: String, counted: @escaping (Int) -> Void) {
        let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
        let session = URLSession(configuration: configuration)
        session.getAllTasks { tasks in
            counted(tasks.count)
            session.invalidateAndCancel()
        }
    }
}
