// swift-format-ignore-file
import UIKit

/// The sources add to UIKit's class; it stays UIKit's, whose subclasses UIKit makes and calls.
extension UITableViewController {
    func deselectAllRows() {
        tableView.indexPathsForSelectedRows?.forEach { tableView.deselectRow(at: $0, animated: true) }
    }
}
