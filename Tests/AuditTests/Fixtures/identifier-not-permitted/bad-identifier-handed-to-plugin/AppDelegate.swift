// swift-format-ignore-file
import Flutter
import UIKit
import flutter_background_service_ios

/// A Flutter app gives its background-service plugin, whose native code is not in these sources, its own task
/// identifier; the plugin registers a launch handler for it, but the Info.plist still permits only the plugin's
/// default identifier, so the registration is refused and the task never runs.
@main
@objc class AppDelegate: FlutterAppDelegate {
    override func application(
        _ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        SwiftFlutterBackgroundServicePlugin.taskIdentifier = "com.example.sync" // expect: identifier-not-permitted
        GeneratedPluginRegistrant.register(with: self)
        return super.application(application, didFinishLaunchingWithOptions: options)
    }
}
