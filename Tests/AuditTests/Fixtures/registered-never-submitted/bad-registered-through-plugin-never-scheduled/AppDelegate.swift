// swift-format-ignore-file
import Flutter
import UIKit
import workmanager

/// A Flutter app asks its background-work plugin to register a periodic task, but its Dart code schedules a task
/// under another name: the plugin submits a request only for what Dart schedules, so this one never runs.
@main
@objc class AppDelegate: FlutterAppDelegate {
    override func application(
        _ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        WorkmanagerPlugin.registerPeriodicTask(withIdentifier: "com.example.refresh", frequency: NSNumber(value: 1200)) // expect: registered-never-submitted
        GeneratedPluginRegistrant.register(with: self)
        return super.application(application, didFinishLaunchingWithOptions: options)
    }
}
