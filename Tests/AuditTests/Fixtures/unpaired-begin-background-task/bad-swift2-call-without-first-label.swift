// swift-format-ignore-file
import UIKit

/// Swift 2 left a method's first label out of its calls: `self.upload(image)` runs `upload(anImage:)`, whose
/// background task the expiration handler ends without resetting the identifier, and the upload ends again.
@UIApplicationMain
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
}

final class EditPhotoViewController: UIViewController, UITextFieldDelegate {
    var image = UIImage()
    var uploadTask = UIBackgroundTaskInvalid

    override func viewDidLoad() {
        super.viewDidLoad()
        self.upload(image)
    }

    func upload(anImage: UIImage) {
        uploadTask = UIApplication.sharedApplication().beginBackgroundTaskWithExpirationHandler { // expect: unpaired-begin-background-task
            UIApplication.sharedApplication().endBackgroundTask(self.uploadTask)
        }
        Uploader.send(anImage) {
            UIApplication.sharedApplication().endBackgroundTask(self.uploadTask)
        }
    }

    func textFieldShouldReturn(textField: UITextField) -> Bool { true }
}

enum Uploader {
    static func send(image: UIImage, done: () -> Void) { done() }
}
