// swift-format-ignore-file
import BackgroundTasks
import Flutter

/// A Flutter plugin (no app in its sources) that registers its export task when the host app registers the plugin.
/// Its only submit is in a private method nothing in the plugin calls, and the host app cannot call a private method,
/// so the export task never runs.
public final class ExportPlugin: NSObject, FlutterPlugin {
    private static let exportIdentifier = "com.example.export.processing"

    public static func register(with registrar: FlutterPluginRegistrar) {
        let instance = ExportPlugin()
        BGTaskScheduler.shared.register(forTaskWithIdentifier: exportIdentifier, using: nil) { task in // expect: registered-never-submitted
            guard let task = task as? BGProcessingTask else { return }
            instance.export(task)
        }
    }

    public func handle(_ call: FlutterMethodCall, result: @escaping FlutterResult) {
        result(nil)
    }

    private func scheduleExport() {
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
