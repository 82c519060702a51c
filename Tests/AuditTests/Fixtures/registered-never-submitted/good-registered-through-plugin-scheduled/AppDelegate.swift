// swift-format-ignore-file
import Flutter
import UIKit
import workmanager

/// A Flutter app asks its background-work plugin to register a periodic task, which its Dart code schedules: the
/// plugin submits the requests Dart asks for.
@main
@objc class AppDelegate: FlutterAppDelegate {
    override func application(
        _ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        WorkmanagerPlugin.registerPeriodicTask(withIdentifier: "com.example.refresh", frequency: NSNumber(value: 1200))
        GeneratedPluginRegistrant.register(with: self)
        return super.application(application, didFinishLaunchingWithOptions: options)
    }
}
