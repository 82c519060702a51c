// swift-format-ignore-file
import Flutter
import UIKit

/// A Flutter app hands its permitted identifier to a background-service plugin, whose native code (not in these
/// sources) registers the launch handler under it when the plugins are registered.
@main
@objc class AppDelegate: FlutterAppDelegate {
    override func application(
        _ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        WalkServicePlugin.taskIdentifier = "com.example.walks.service"
        GeneratedPluginRegistrant.register(with: self)
        return super.application(application, didFinishLaunchingWithOptions: options)
    }
}
