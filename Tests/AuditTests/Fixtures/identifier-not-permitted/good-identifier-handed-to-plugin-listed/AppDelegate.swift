// swift-format-ignore-file
import Flutter
import UIKit
import flutter_background_service_ios

/// A Flutter app gives its background-service plugin, whose native code is not in these sources, its own task
/// identifier, which the plugin registers and submits itself; the Info.plist permits it.
@main
@objc class AppDelegate: FlutterAppDelegate {
    override func application(
        _ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        SwiftFlutterBackgroundServicePlugin.taskIdentifier = "com.example.sync"
        GeneratedPluginRegistrant.register(with: self)
        return super.application(application, didFinishLaunchingWithOptions: options)
    }
}
