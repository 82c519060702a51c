import Domain
import Foundation
import PipelineKit
import Scheduling

/// How a simulated app's launch code treats the pipeline's four tasks.
public enum LaunchStyle: String, Sendable, Hashable, CaseIterable {
    /// Every launch registers the handlers and submits each task's chain with `.keep`, through
    /// `Pipeline.launch`, the one entry point (DESIGN §4).
    case launchChain = "with launch chain"
    /// The original iOS app: it registers the handlers and never submits a request (DESIGN §8,
    /// bug 1). The scheduler cannot express that — registering happens only inside the launch, which
    /// submits — so this app keeps the handlers and never calls the launch; the system, which
    /// launches an app only for a submitted request, finds none.
    case registerOnly = "register only"

    /// The key in JSON output.
    public var key: String {
        switch self {
        case .launchChain: "withLaunchChain"
        case .registerOnly: "registerOnly"
        }
    }

    /// What the app's launch code does, in a sentence.
    public var summary: String {
        switch self {
        case .launchChain: "registers the four tasks and submits their chains with .keep at every launch"
        case .registerOnly: "registers the handlers and never submits a request (the original iOS app)"
        }
    }
}

/// One app on the simulated phone: its lifecycle, its own database with the phone's owner in it, and
/// its launch code. The phone's conditions and the system's decisions come from the timeline; the
/// tasks, their requests and their history are the pipeline's real code on the virtual clock.
///
/// Not thread-safe: it is driven by one task, event after event.
final class SimulatedApp {
    static let owner = UserID("owner")!

    let style: LaunchStyle
    let lifecycle: AppLifecycle
    let pipeline: Pipeline
    private let clock: ManualClock
    private let start: Date
    private let conditions = ManualConditions(isOnExternalPower: false, hasNetworkConnectivity: true)
    /// Budgets and their expiry.
    private let timer: ManualExpiryTimer
    /// The retrains' work, on the same clock.
    private let workTimer: ManualExpiryTimer
    private let device: DeviceSimulation
    private let signals: AsyncStream<Signal>
    private let signal: AsyncStream<Signal>.Continuation
    private var signalIterator: AsyncStream<Signal>.Iterator

    /// When the system launched the app in the background.
    private(set) var launches: [Date] = []
    /// When the system wanted to launch it for a due request and could not: the user had force-quit it.
    private(set) var refusedLaunches: [Date] = []
    /// Runs the system ended early, and why.
    private(set) var interruptions: [DeviceReport.Interruption] = []

    /// What a background launch in flight tells the driver.
    enum Signal: Sendable {
        /// A retrain works until this instant.
        case working(until: Date)
        /// The launch returned.
        case finished
    }

    /// A processing launch whose retrain takes virtual time: the driver moves the clock to the end
    /// of its work or of its budget, whichever comes first, while the timeline goes on around it.
    private struct InFlight {
        let launch: Task<Void, any Error>
        var workEnd: Date?
        var budgetEnd: Date?
    }

    private var inFlight: InFlight?

    /// The phone's scheduler: iOS's budgets and its limit on pending requests.
    private let configuration: SchedulerConfiguration = {
        var configuration = SchedulerConfiguration()
        configuration.pendingRequestLimit = .iOS
        return configuration
    }()

    init(style: LaunchStyle, databasePath: String, start: Date, device: DeviceSimulation) async throws(PipelineError) {
        self.style = style
        self.device = device
        self.start = start
        clock = ManualClock(start)
        lifecycle = AppLifecycle(clock: clock)
        timer = ManualExpiryTimer(clock: clock)
        workTimer = ManualExpiryTimer(clock: clock)
        (signals, signal) = AsyncStream.makeStream(of: Signal.self)
        signalIterator = signals.makeAsyncIterator()
        // The phone's idle maintenance windows open from 01:00 (`DeviceTimeline`): the retrain is due
        // from then, so any window of the night can run it.
        var schedule = PipelineTaskSchedule()
        schedule.retrainHour = 1
        pipeline = try await Pipeline.open(path: databasePath, clock: clock, schedule: schedule)
        try await pipeline.ingest(.user(UserUpdate(id: Self.owner, timeZone: .utc)))
    }

    /// Plays the timeline, then runs the virtual clock to its end. A retrain in flight goes on while
    /// the timeline does, and one still running at the end is let finish.
    func replay(_ timeline: DeviceTimeline, until end: Duration) async throws(PipelineError) {
        for entry in timeline.entries {
            try await advanceRun(until: date(entry.offset))
            lifecycle.advance(to: entry.offset)
            try await handle(entry.event)
        }
        try await advanceRun(until: nil)
        if lifecycle.elapsed < end { lifecycle.advance(to: end) }
    }

    private func date(_ offset: Duration) -> Date {
        start.addingTimeInterval(Double(offset.components.seconds))
    }

    private func offset(_ date: Date) -> Duration {
        .seconds(Int64(date.timeIntervalSince(start).rounded()))
    }

    /// The launch options of every launch: the phone's conditions and iOS's limit on pending
    /// requests, budgets on the virtual clock, and a stand-in for training.
    func options(tasks: Set<TaskIdentifier>?) -> LaunchOptions {
        var options = LaunchOptions()
        options.tasks = tasks
        options.jobs = 1
        options.conditions = conditions
        options.timer = timer
        options.configuration = configuration
        let signal = self.signal
        options.personalModel = SimulatedPersonalModel(
            duration: device.retrainDuration, timer: workTimer, started: { signal.yield(.working(until: $0)) })
        return options
    }

    /// Lets the retrain in flight go on until `limit` (to its end when `nil`): the clock moves to the
    /// end of its work or of its budget, whichever comes first; at one instant the work comes first.
    private func advanceRun(until limit: Date?) async throws(PipelineError) {
        while let run = inFlight, let workEnd = run.workEnd, let budgetEnd = run.budgetEnd {
            let workFirst = workEnd <= budgetEnd
            let wake = workFirst ? workEnd : budgetEnd
            if let limit, wake > limit { return }
            lifecycle.advance(to: offset(wake))
            if workFirst { workTimer.fire() } else { timer.fire() }
            try await awaitSignal()
        }
    }

    /// Waits for the launch in flight to start working or to return.
    private func awaitSignal() async throws(PipelineError) {
        guard let run = inFlight else { return }
        switch await signalIterator.next() {
        case .working(let until):
            // The run's budget wait has begun once it is counted; then moving the clock is safe.
            await timer.untilWaiting(1)
            inFlight?.workEnd = until
            inFlight?.budgetEnd = clock.now.addingTimeInterval(configuration.processingBudget)
        case .finished, nil:
            inFlight = nil
            do {
                try await run.launch.value
            } catch let error as PipelineError {
                throw error
            } catch {
                preconditionFailure("a launch throws only PipelineError: \(error)")
            }
        }
    }

    /// The system ends the run in flight early, as iOS does when it needs the memory back or a task
    /// that requires power loses it: its expiration handler is called and its work cancelled.
    private func interruptRun(_ cause: DeviceReport.Interruption.Cause) async throws(PipelineError) {
        guard inFlight != nil else { return }
        interruptions.append(DeviceReport.Interruption(at: clock.now, cause: cause))
        timer.expireNow()
        while inFlight != nil { try await awaitSignal() }
    }

    private func handle(_ event: DeviceTimeline.Event) async throws(PipelineError) {
        switch event {
        case .open:
            let isColdLaunch = lifecycle.state == .terminated
            lifecycle.open()
            if isColdLaunch {
                try await didFinishLaunching()
            }
        case .leave:
            lifecycle.enterBackground()
        case .forceQuit:
            lifecycle.forceQuit()
            try await interruptRun(.forceQuit)
        case .plugIn:
            conditions.set(DeviceConditions(isOnExternalPower: true, hasNetworkConnectivity: true))
        case .unplug:
            conditions.set(DeviceConditions(isOnExternalPower: false, hasNetworkConnectivity: true))
            try await interruptRun(.unplugged)
        case .memoryPressure:
            lifecycle.memoryPressure()
            try await interruptRun(.memoryPressure)
        case .refreshWindow:
            try await offerBackgroundLaunch(for: .appRefresh)
        case .processingWindow:
            try await offerBackgroundLaunch(for: .processing)
        }
    }

    /// The launch code that runs when the process starts in the foreground. Only the launch submits
    /// anything; it runs no task here (`tasks: []`), because iOS runs background tasks only in
    /// launches of their own.
    private func didFinishLaunching() async throws(PipelineError) {
        switch style {
        case .launchChain:
            try await pipeline.launch(options(tasks: []))
        case .registerOnly:
            break
        }
    }

    /// The system considers launching the app in the background for its due requests of `kind`, as
    /// iOS does: never while the user is in the app, in Low Power Mode or with Background App Refresh
    /// off, nor after a force-quit until the user opens the app; and only for a submitted request that
    /// is due and whose conditions hold now.
    private func offerBackgroundLaunch(for kind: TaskKind) async throws(PipelineError) {
        guard inFlight == nil, lifecycle.state != .active, !device.lowPowerMode, !device.backgroundRefreshDenied
        else { return }
        let now = clock.now
        let power = conditions.currentConditions().isOnExternalPower
        let due = try await pipeline.pendingTasks().filter {
            $0.isPending && $0.kind == kind && $0.isDue(at: now) && (!$0.requiresExternalPower || power)
        }
        guard !due.isEmpty else { return }

        guard !lifecycle.isBackgroundLaunchSuppressed else {
            refusedLaunches.append(now)
            lifecycle.launchInBackground()  // logged as refused
            return
        }
        let options = options(tasks: Set(due.map(\.identifier)))
        if kind == .processing {
            // A processing task gets minutes of its own, not the app's 30 s window: the retrain runs
            // while the timeline goes on, until its work or its budget ends or the system stops it.
            let launched = lifecycle.launchInBackground()
            precondition(launched, "a suspended or terminated app that was not force-quit can be launched")
            launches.append(now)
            let pipeline = self.pipeline
            let signal = self.signal
            inFlight = InFlight(
                launch: Task {
                    defer { signal.yield(.finished) }
                    _ = try await pipeline.launch(options)
                })
            try await awaitSignal()
            return
        }
        var assertion = BackgroundTaskIdentifier.invalid
        let launched = lifecycle.launchInBackground {
            // The system keeps the app running for the task's run, as a background task would.
            assertion = self.lifecycle.beginBackgroundTask(name: kind.rawValue)
        }
        precondition(launched, "a suspended or terminated app that was not force-quit can be launched")
        launches.append(now)
        // The launch registers, keeps every chain, and runs the due refresh requests, which take
        // no virtual time, so the background window never runs out here.
        try await pipeline.launch(options)
        lifecycle.endBackgroundTask(assertion)
    }
}
