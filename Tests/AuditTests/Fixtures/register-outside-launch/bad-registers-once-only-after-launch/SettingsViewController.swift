// swift-format-ignore-file
import UIKit

final class SettingsViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        BackgroundTasks.shared.registerAll()
    }
}
