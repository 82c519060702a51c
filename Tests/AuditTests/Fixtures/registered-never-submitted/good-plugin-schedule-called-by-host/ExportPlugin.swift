// swift-format-ignore-file
import BackgroundTasks
import Flutter

/// A Flutter plugin (no app in its sources) that registers its export task when the host app registers the plugin.
/// Its submit is in a public method the host app calls, which the plugin's sources need not call themselves.
public final class ExportPlugin: NSObject, FlutterPlugin {
    private static let exportIdentifier = "com.example.export.processing"

    public static func register(with registrar: FlutterPluginRegistrar) {
        let instance = ExportPlugin()
        BGTaskScheduler.shared.register(forTaskWithIdentifier: exportIdentifier, using: nil) { task in
            guard let task = task as? BGProcessingTask else {
                task.setTaskCompleted(success: false)
                return
            }
            instance.scheduleExport()
            instance.export(task)
        }
    }

    public func handle(_ call: FlutterMethodCall, result: @escaping FlutterResult) {
        result(nil)
    }

    /// Called by the host app (the plugin's README asks it to) whenever it has something to export.
    public func scheduleExport() {
        let request = BGProcessingTaskRequest(identifier: Self.exportIdentifier)
        request.requiresNetworkConnectivity = true
        try? BGTaskScheduler.shared.submit(request)
    }

    private func export(_ task: BGProcessingTask) {
        task.expirationHandler = { Exporter.cancel() }
        Exporter.run { task.setTaskCompleted(success: $0) }
    }
}

enum Exporter {
    static func run(_ done: @escaping (Bool) -> Void) { done(true) }
    static func cancel() {}
}
