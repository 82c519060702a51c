public import Domain
public import Foundation

/// The iOS app-lifecycle boundary as a deterministic state machine on a virtual clock (DESIGN §9):
/// what the system does to an app, and what it allows the app to do, in each state.
///
/// The rules it keeps, from UIKit's documentation:
/// - A background app holding no background task is suspended at once; UIKit does it "shortly
///   after" `applicationDidEnterBackground(_:)` returns, which here is the end of the
///   `enterBackground` callback.
///   https://developer.apple.com/documentation/uikit/extending-your-app-s-background-execution-time
/// - `beginBackgroundTask` keeps the app running off screen for a window of background time, fixed
///   here at `backgroundWindow` (30 s). The window is the app's, not the task's: it starts when the
///   app is in the background holding a task, further tasks share it, and a return to the foreground
///   ends it. The expiration handlers are called `expirationLead` before the deadline; a task not
///   ended by the deadline gets the app killed.
///   https://developer.apple.com/documentation/uikit/uiapplication/beginbackgroundtask(expirationhandler:)
/// - `beginBackgroundTask` returns `.invalid` when running in the background is not possible: the app
///   is suspended or not running, or its background time is about to expire.
/// - A suspended app runs no code: its work freezes, work submitted to it is refused, and under
///   memory pressure it is killed without a callback. A running app gets a memory warning instead.
/// - After a force-quit the system does not launch the app in the background until the user opens it.
///
/// Every call happens at the current virtual time; time moves only through `advance(by:)` and
/// `advance(to:)`, which fire what falls due (work finishing, expiration handlers, the deadline) in
/// order. Callbacks (`enterBackground`'s, expiration handlers, work completions) run synchronously
/// inside the call that triggers them, as UIKit calls them on the main thread, and may call back
/// into the lifecycle.
///
/// Not thread-safe: one simulation belongs to one task.
public final class AppLifecycle {
    /// The background time one stay in the background gets; iOS grants "about 30 s", the
    /// simulator exactly this, so every run prints the same log.
    public static let backgroundWindow: Duration = .seconds(30)
    /// How long before the deadline the expiration handlers are called. Apple documents only
    /// "shortly before the app's remaining background time reaches 0"; a fixed lead keeps logs
    /// reproducible.
    public static let expirationLead: Duration = .seconds(5)

    public private(set) var state: AppState = .terminated
    /// The state log, oldest first.
    public private(set) var events: [LifecycleEvent] = []
    /// Virtual time since the simulation began.
    public private(set) var elapsed: Duration = .zero
    /// Whether the system may not launch the app in the background: set by a force-quit, cleared
    /// when the user opens the app.
    public private(set) var isBackgroundLaunchSuppressed = false
    /// Called on a memory warning (`didReceiveMemoryWarning`), which only a running app receives.
    public var onMemoryWarning: (() -> Void)?

    private let virtualClock: ManualClock
    private let start: Date
    private var tasks: [HeldTask] = []
    private var lastTaskID = 0
    private var window: Window?
    private var work: [Work] = []
    private var lastWorkID = 0

    /// A terminated app at virtual time zero; `clock` reads `start` then.
    public convenience init(start: Date = Date(timeIntervalSince1970: 0)) {
        self.init(clock: ManualClock(start))
    }

    /// A terminated app at virtual time zero, which is what `clock` reads now. The lifecycle sets
    /// `clock` as virtual time advances, so code that needs a `ManualClock` (an expiry timer) can
    /// share it; nothing else may move it.
    public init(clock: ManualClock) {
        start = clock.now
        virtualClock = clock
    }

    /// The virtual clock, for code that runs inside the simulated app and asks the time. It moves
    /// only with `advance`.
    public var clock: any Clock { virtualClock }

    /// Time left before the background deadline; `nil` while no window runs (in the foreground,
    /// or with no background task).
    public var backgroundTimeRemaining: Duration? {
        window.map { $0.deadline - elapsed }
    }

    /// The background tasks begun and not yet ended, oldest first.
    public var backgroundTasks: [BackgroundTaskIdentifier] {
        tasks.map(\.id)
    }

    // MARK: - Time

    /// Moves virtual time forward by `duration`, firing what falls due on the way.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "virtual time only moves forward")
        advance(to: elapsed + duration)
    }

    /// Moves virtual time forward to `offset` since the start, firing what falls due on the
    /// way: at one instant, work finishing comes before the expiration handlers, and those before the
    /// deadline, so work done exactly at the deadline counts as done in time.
    public func advance(to offset: Duration) {
        precondition(offset >= elapsed, "virtual time only moves forward")
        while let due = nextDue(), due.time <= offset {
            move(to: due.time)
            fire(due.action)
        }
        move(to: offset)
    }

    // MARK: - What the user and the system do

    /// The user opens the app: a cold launch when it is not running, a return to the foreground
    /// otherwise. Lifts the suppression of background launches a force-quit set.
    public func open() {
        guard state != .active else {
            record(.ignored(event: "open", reason: "the app is already active"))
            return
        }
        isBackgroundLaunchSuppressed = false
        transition(to: .active, cause: .userOpened)
    }

    /// The user leaves the app. `didEnterBackground` runs in the background, as
    /// `applicationDidEnterBackground(_:)` does: the place to begin a background task. When it
    /// returns with no background task held, the app is suspended.
    public func enterBackground(_ didEnterBackground: (() -> Void)? = nil) {
        guard state == .active else {
            record(.ignored(event: "enterBackground", reason: "the app is \(state), not active"))
            return
        }
        transition(to: .background, cause: .userLeft)
        didEnterBackground?()
        suspendIfIdle()
    }

    /// The system launches the app in the background (or wakes it from suspension), e.g. to run a
    /// scheduled task; `didLaunch` runs then. When it returns with no background task held, the app
    /// is suspended. Refused after a force-quit until the user opens the app, and ignored while the
    /// app runs.
    ///
    /// - Returns: whether the app was launched and `didLaunch` ran.
    @discardableResult
    public func launchInBackground(_ didLaunch: (() -> Void)? = nil) -> Bool {
        if isBackgroundLaunchSuppressed {
            record(.backgroundLaunchRefused(reason: "the user force-quit the app and has not opened it since"))
            return false
        }
        guard state == .terminated || state == .suspended else {
            record(.ignored(event: "background launch", reason: "the app is already running (\(state))"))
            return false
        }
        transition(to: .background, cause: .backgroundLaunch)
        didLaunch?()
        suspendIfIdle()
        return true
    }

    /// The system runs short of memory. A suspended app is killed without a callback; a running one
    /// gets a memory warning (`onMemoryWarning`) and keeps running.
    public func memoryPressure() {
        switch state {
        case .suspended:
            transition(to: .terminated, cause: .memoryPressure)
        case .active, .background:
            record(.memoryWarning)
            onMemoryWarning?()
        case .terminated:
            record(.ignored(event: "memory pressure", reason: "the app is not running"))
        }
    }

    /// The user swipes the app away in the app switcher: it is killed if it runs or is suspended,
    /// and background launches stop until the user opens it again.
    public func forceQuit() {
        if state != .terminated {
            transition(to: .terminated, cause: .forceQuit)
        }
        if isBackgroundLaunchSuppressed {
            record(.ignored(event: "forceQuit", reason: "the app was already force-quit"))
        } else {
            isBackgroundLaunchSuppressed = true
            record(.backgroundLaunchesSuppressed)
        }
    }

    // MARK: - What the app does

    /// Asks for time to finish work off screen, as `UIApplication.beginBackgroundTask(withName:
    /// expirationHandler:)` does. Begun in the foreground, the task starts the background window when
    /// the app leaves; begun in the background, it starts the window if none runs, or shares it.
    ///
    /// `expirationHandler` is called `expirationLead` before the deadline and should end the task; a
    /// task still held at the deadline gets the app killed.
    ///
    /// - Returns: the identifier to pass to `endBackgroundTask(_:)`, or `.invalid` when the app is
    ///   suspended, not running, or its background time is about to expire.
    public func beginBackgroundTask(
        name: String, expirationHandler: (() -> Void)? = nil
    ) -> BackgroundTaskIdentifier {
        let refusal: String? =
            switch state {
            case .suspended: "the app is suspended"
            case .terminated: "the app is terminated"
            case .background where window?.handlersCalled == true: "background time is about to expire"
            case .active, .background: nil
            }
        if let refusal {
            record(.backgroundTaskRefused(name: name, reason: refusal))
            return .invalid
        }
        lastTaskID += 1
        let id = BackgroundTaskIdentifier(rawValue: lastTaskID)
        tasks.append(HeldTask(id: id, name: name, began: elapsed, expirationHandler: expirationHandler))
        record(.backgroundTaskBegan(id, name: name))
        startWindowIfNeeded()
        return id
    }

    /// Ends a background task. The last one ended in the background lets the app be suspended at
    /// once. An identifier that names no running task (already ended, `.invalid`, or lost when the
    /// app was killed) is logged and otherwise ignored, as UIKit does.
    public func endBackgroundTask(_ id: BackgroundTaskIdentifier) {
        guard let index = tasks.firstIndex(where: { $0.id == id }) else {
            record(.endBackgroundTaskIgnored(id))
            return
        }
        let task = tasks.remove(at: index)
        record(.backgroundTaskEnded(id, name: task.name, heldFor: elapsed - task.began))
        suspendIfIdle()
    }

    /// Starts a piece of work that needs `duration` of running time. It progresses only while
    /// the app runs code: it freezes while the app is suspended and is lost if the app is killed.
    /// `completion` runs when it finishes.
    ///
    /// - Returns: `false`, and the work is refused, when the app is suspended or terminated.
    @discardableResult
    public func submitWork(named name: String, duration: Duration, completion: (() -> Void)? = nil) -> Bool {
        precondition(duration > .zero, "work needs some running time")
        guard state.runsCode else {
            record(.workRefused(name: name, reason: "the app is \(state)"))
            return false
        }
        lastWorkID += 1
        work.append(
            Work(id: lastWorkID, name: name, remaining: duration, runningSince: elapsed, completion: completion))
        record(.workStarted(name: name, duration: duration))
        return true
    }

    // MARK: - The machine

    private struct HeldTask {
        let id: BackgroundTaskIdentifier
        let name: String
        let began: Duration
        let expirationHandler: (() -> Void)?
    }

    /// One stay in the background with time granted.
    private struct Window {
        let deadline: Duration
        var handlersCalled = false
    }

    private struct Work {
        let id: Int
        let name: String
        /// Running time still needed, as of `runningSince` (or now, when frozen).
        var remaining: Duration
        /// When the work last started making progress; `nil` while frozen.
        var runningSince: Duration?
        let completion: (() -> Void)?

        var finishesAt: Duration? { runningSince.map { $0 + remaining } }

        func remaining(at now: Duration) -> Duration {
            runningSince.map { remaining - (now - $0) } ?? remaining
        }
    }

    private enum Due {
        case finishWork(id: Int)
        case callExpirationHandlers
        case expire
    }

    /// The earliest thing that falls due; on a tie, work before the window, older work first.
    private func nextDue() -> (time: Duration, action: Due)? {
        var next: (time: Duration, action: Due)?
        for item in work {
            if let time = item.finishesAt, next.map({ time < $0.time }) ?? true {
                next = (time, .finishWork(id: item.id))
            }
        }
        if let window {
            let due: (time: Duration, action: Due) =
                window.handlersCalled
                ? (window.deadline, .expire) : (window.deadline - Self.expirationLead, .callExpirationHandlers)
            if next.map({ due.time < $0.time }) ?? true {
                next = due
            }
        }
        return next
    }

    private func fire(_ action: Due) {
        switch action {
        case .finishWork(let id):
            guard let index = work.firstIndex(where: { $0.id == id }) else { return }
            let finished = work.remove(at: index)
            record(.workFinished(name: finished.name))
            finished.completion?()
        case .callExpirationHandlers:
            guard let deadline = window?.deadline else { return }
            window?.handlersCalled = true
            // A handler may end any task, or get the app suspended: walk a snapshot and skip what
            // is gone.
            for id in tasks.map(\.id) {
                guard state == .background, let task = tasks.first(where: { $0.id == id }) else { continue }
                let remaining = deadline - elapsed
                if let handler = task.expirationHandler {
                    record(.expirationHandlerCalled(id, name: task.name, remaining: remaining))
                    handler()
                } else {
                    record(.expirationHandlerMissing(id, name: task.name, remaining: remaining))
                }
            }
        case .expire:
            transition(to: .terminated, cause: .expired(tasks.map(\.name)))
        }
    }

    private func transition(to next: AppState, cause: TransitionCause) {
        let previous = state
        state = next
        record(.transition(from: previous, to: next, cause: cause))
        switch next {
        case .active:
            window = nil
            resumeWork()
        case .background:
            resumeWork()
            startWindowIfNeeded()
        case .suspended:
            window = nil
            freezeWork()
        case .terminated:
            window = nil
            // Dropping the tasks releases their handlers: a killed process runs nothing more.
            tasks = []
            for item in work {
                record(.workLost(name: item.name, remaining: item.remaining(at: elapsed)))
            }
            work = []
        }
    }

    private func startWindowIfNeeded() {
        guard state == .background, window == nil, !tasks.isEmpty else { return }
        let deadline = elapsed + Self.backgroundWindow
        window = Window(deadline: deadline)
        record(.backgroundTimeGranted(deadline: deadline))
    }

    private func suspendIfIdle() {
        if state == .background, tasks.isEmpty {
            transition(to: .suspended, cause: .noBackgroundTask)
        }
    }

    private func freezeWork() {
        for index in work.indices where work[index].runningSince != nil {
            let remaining = work[index].remaining(at: elapsed)
            work[index].remaining = remaining
            work[index].runningSince = nil
            record(.workFrozen(name: work[index].name, remaining: remaining))
        }
    }

    private func resumeWork() {
        for index in work.indices where work[index].runningSince == nil {
            work[index].runningSince = elapsed
            record(.workResumed(name: work[index].name, remaining: work[index].remaining))
        }
    }

    private func move(to offset: Duration) {
        elapsed = offset
        virtualClock.set(start.addingTimeInterval(offset.timeInterval))
    }

    private func record(_ kind: LifecycleEvent.Kind) {
        events.append(LifecycleEvent(offset: elapsed, kind: kind, state: state))
    }
}
