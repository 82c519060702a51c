// swift-format-ignore-file
import Flutter
import UIKit
import workmanager

/// A Flutter app asks its background-work plugin, whose native code is not in these sources, to register each
/// permitted identifier (`registerPeriodicTask(withIdentifier:…)`).
@main
@objc class AppDelegate: FlutterAppDelegate {
    override func application(
        _ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        WorkmanagerPlugin.registerBGProcessingTask(withIdentifier: "com.example.cleanup")
        WorkmanagerPlugin.registerPeriodicTask(withIdentifier: "com.example.refresh", frequency: NSNumber(value: 1200))
        GeneratedPluginRegistrant.register(with: self)
        return super.application(application, didFinishLaunchingWithOptions: options)
    }
}
