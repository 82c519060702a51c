/// The scripted stories `pipeline simulate --scenario` replays: each drives an `AppLifecycle` through
/// one way background work ends on iOS and returns its state log. The same scenario always gives
/// the same log.
public enum LifecycleScenario: String, Sendable, Hashable, CaseIterable {
    /// The app begins a background task as it leaves, finishes its upload inside the 30 s window and
    /// ends the task: it is suspended cleanly, and later work is refused while it is suspended.
    case finishesInWindow = "finishes-in-window"
    /// The upload needs longer than the window; the expiration handler is called but does not end
    /// the task, so the app is killed at the deadline and the upload is lost.
    case overrunsWindow = "overruns-window"
    /// Work started without a background task freezes when the app is suspended; a memory warning
    /// reaches the app while it runs, but once suspended it is killed without any callback.
    case memoryPressure = "memory-pressure"

    /// One sentence for help text.
    public var summary: String {
        switch self {
        case .finishesInWindow:
            "An upload that ends inside the 30 s background window: the app is suspended cleanly."
        case .overrunsWindow:
            "An upload that overruns the window: the app is killed at the deadline and the upload is lost."
        case .memoryPressure:
            "Work without a background task freezes on suspension; memory pressure then kills the app silently."
        }
    }

    /// Plays the scenario on a fresh app and returns its state log.
    public func run() -> [LifecycleEvent] {
        let app = AppLifecycle()
        switch self {
        case .finishesInWindow: Self.finishInWindow(app)
        case .overrunsWindow: Self.overrunWindow(app)
        case .memoryPressure: Self.killUnderMemoryPressure(app)
        }
        return app.events
    }

    private static func finishInWindow(_ app: AppLifecycle) {
        app.open()
        app.advance(to: .seconds(1))
        app.enterBackground {
            var upload = BackgroundTaskIdentifier.invalid
            upload = app.beginBackgroundTask(name: "upload") { app.endBackgroundTask(upload) }
            app.submitWork(named: "upload", duration: .seconds(20)) { app.endBackgroundTask(upload) }
        }
        app.advance(to: .seconds(40))
        app.submitWork(named: "refresh", duration: .seconds(2))
    }

    private static func overrunWindow(_ app: AppLifecycle) {
        app.open()
        app.advance(to: .seconds(1))
        app.enterBackground {
            var upload = BackgroundTaskIdentifier.invalid
            upload = app.beginBackgroundTask(name: "upload") {
                // The common mistake: the handler asks the upload to stop and leaves ending the task
                // to the upload's completion, which does not come before the deadline.
            }
            app.submitWork(named: "upload", duration: .seconds(45)) { app.endBackgroundTask(upload) }
        }
        app.advance(to: .seconds(40))
        app.submitWork(named: "refresh", duration: .seconds(2))
        app.advance(to: .seconds(60))
        app.open()
    }

    private static func killUnderMemoryPressure(_ app: AppLifecycle) {
        app.open()
        app.submitWork(named: "index", duration: .seconds(120))
        app.advance(to: .seconds(10))
        app.memoryPressure()
        app.advance(to: .seconds(20))
        app.enterBackground()
        app.advance(to: .seconds(30))
        app.submitWork(named: "refresh", duration: .seconds(2))
        app.advance(to: .seconds(60))
        app.memoryPressure()
        app.advance(to: .seconds(90))
        app.open()
    }
}
