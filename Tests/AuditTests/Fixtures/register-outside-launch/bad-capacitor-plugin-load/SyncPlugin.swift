// swift-format-ignore-file
import BackgroundTasks
import Capacitor
import Foundation

/// A Capacitor plugin registers its task when the bridge loads it. Capacitor makes its plugins once the bridge's view
/// controller has loaded, after `application(_:didFinishLaunchingWithOptions:)` has returned: too late to register.
@objc(SyncPlugin)
public class SyncPlugin: CAPPlugin, CAPBridgedPlugin {
    public let identifier = "SyncPlugin"
    public let jsName = "Sync"
    public let pluginMethods: [CAPPluginMethod] = [CAPPluginMethod(name: "schedule", returnType: CAPPluginReturnPromise)]

    override public func load() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.sync.refresh", using: nil) { task in // expect: register-outside-launch
            self.schedule()
            task.expirationHandler = { Outbox.cancel() }
            Outbox.flush { task.setTaskCompleted(success: $0) }
        }
    }

    @objc func schedule(_ call: CAPPluginCall) {
        schedule()
        call.resolve()
    }

    private func schedule() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.sync.refresh"))
    }
}

enum Outbox {
    static func flush(_ done: @escaping (Bool) -> Void) { DispatchQueue.global().async { done(true) } }
    static func cancel() {}
}
