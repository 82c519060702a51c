// swift-format-ignore-file
import UIKit

/// No Swift code makes this controller: a storyboard does, by its class name, and runs its unwind action.
final class CallsViewController: UITableViewController {
    var calls: [String] = []

    @IBAction func unwindForSimulatedCall(_ segue: UIStoryboardSegue) {
        let task = UIApplication.shared.beginBackgroundTask(expirationHandler: nil) // expect: unpaired-begin-background-task
        (UIApplication.shared.delegate as? AppDelegate)?.simulateIncomingCall(after: 10) {
            UIApplication.shared.endBackgroundTask(task)
        }
    }
}
