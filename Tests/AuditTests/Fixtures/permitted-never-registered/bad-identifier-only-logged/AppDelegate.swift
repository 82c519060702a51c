// swift-format-ignore-file
import Flutter
import UIKit

/// The app keeps its permitted identifier in a setting of its own and logs it, but nothing — in these sources or
/// handed to a plugin — registers a launch handler under it.
@main
@objc class AppDelegate: FlutterAppDelegate {
    override func application(
        _ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        WalkSettings.taskIdentifier = "com.example.walks.service"
        print("walk service: \(WalkSettings.taskIdentifier)")
        GeneratedPluginRegistrant.register(with: self)
        return super.application(application, didFinishLaunchingWithOptions: options)
    }
}

enum WalkSettings {
    static var taskIdentifier = ""
}
