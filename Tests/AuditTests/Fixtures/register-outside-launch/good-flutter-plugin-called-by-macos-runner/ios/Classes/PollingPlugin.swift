// swift-format-ignore-file
import BackgroundTasks
import Flutter
import UIKit

// The iOS side of a Flutter plugin: the app's generated registrant calls `register(with:)` from
// `application(_:didFinishLaunchingWithOptions:)`.
public class PollingPlugin: NSObject, FlutterPlugin {
    static let taskIdentifier = "com.example.polling.refresh"

    public static func register(with registrar: FlutterPluginRegistrar) {
        let instance = PollingPlugin()
        let channel = FlutterMethodChannel(name: "polling", binaryMessenger: registrar.messenger())
        registrar.addMethodCallDelegate(instance, channel: channel)
        BGTaskScheduler.shared.register(forTaskWithIdentifier: taskIdentifier, using: nil) { task in
            instance.handleRefresh(task)
        }
    }

    public func handle(_ call: FlutterMethodCall, result: @escaping FlutterResult) {
        if call.method == "start" {
            schedule()
        }
        result(nil)
    }

    private func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: Self.taskIdentifier))
    }

    private func handleRefresh(_ task: BGTask) {
        schedule()
        task.expirationHandler = { Poller.cancel() }
        Poller.poll { task.setTaskCompleted(success: $0) }
    }
}
