public import Domain

/// One line of the state log: something that happened to the app, at a virtual time.
public struct LifecycleEvent: Sendable, Hashable, CustomStringConvertible {
    /// Virtual time since the simulation began.
    public let offset: Duration
    public let kind: Kind
    /// The app's state once the event has happened.
    public let state: AppState

    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// The app moved from one state to another.
        case transition(from: AppState, to: AppState, cause: TransitionCause)
        /// `beginBackgroundTask` granted a task.
        case backgroundTaskBegan(BackgroundTaskIdentifier, name: String)
        /// `beginBackgroundTask` returned `.invalid`; `reason` completes "refused: …".
        case backgroundTaskRefused(name: String, reason: String)
        /// The app is in the background holding a task: its window of background time starts, and
        /// ends at `deadline` (an offset).
        case backgroundTimeGranted(deadline: Duration)
        /// The system called the task's expiration handler, `remaining` seconds before the deadline.
        case expirationHandlerCalled(BackgroundTaskIdentifier, name: String, remaining: Duration)
        /// The task's time is running out and it has no expiration handler to end it.
        case expirationHandlerMissing(BackgroundTaskIdentifier, name: String, remaining: Duration)
        /// `endBackgroundTask` ended a task that had been held for `heldFor` seconds.
        case backgroundTaskEnded(BackgroundTaskIdentifier, name: String, heldFor: Duration)
        /// `endBackgroundTask` was called with an identifier that names no running task.
        case endBackgroundTaskIgnored(BackgroundTaskIdentifier)
        /// The app started a piece of work that needs `duration` seconds of running time.
        case workStarted(name: String, duration: Duration)
        case workFinished(name: String)
        /// Work submitted while the app runs no code; `reason` completes "refused: …".
        case workRefused(name: String, reason: String)
        /// The app was suspended with the work unfinished: it makes no progress until the app runs again.
        case workFrozen(name: String, remaining: Duration)
        case workResumed(name: String, remaining: Duration)
        /// The app was killed with the work unfinished.
        case workLost(name: String, remaining: Duration)
        /// A running app was told to free memory (`didReceiveMemoryWarning`) and keeps running.
        case memoryWarning
        /// After a force-quit, the system launches the app in the background no more until the user
        /// opens it.
        case backgroundLaunchesSuppressed
        /// The system wanted to launch the app in the background and may not (it was force-quit).
        case backgroundLaunchRefused(reason: String)
        /// An event that has no effect in the app's state; `event` names it, `reason` says why.
        case ignored(event: String, reason: String)
    }

    /// The line of the text log, e.g.
    /// `+00:00:31.000 background → terminated: background task 'upload' expired without endBackgroundTask`.
    public var description: String {
        VirtualTime.format(offset) + " " + text
    }

    /// The line without its time.
    public var text: String {
        switch kind {
        case .transition(let from, let to, let cause):
            "\(from) → \(to): " + cause.explanation(from: from)
        case .backgroundTaskBegan(let id, let name):
            "beginBackgroundTask '\(name)' granted \(id)"
        case .backgroundTaskRefused(let name, let reason):
            "beginBackgroundTask '\(name)' refused (.invalid): \(reason)"
        case .backgroundTimeGranted(let deadline):
            "background time granted until \(VirtualTime.format(deadline))"
        case .expirationHandlerCalled(let id, let name, let remaining):
            "expiration handler of '\(name)' \(id) called, \(VirtualTime.seconds(remaining)) left"
        case .expirationHandlerMissing(let id, let name, let remaining):
            "'\(name)' \(id) has no expiration handler, \(VirtualTime.seconds(remaining)) left"
        case .backgroundTaskEnded(let id, let name, let heldFor):
            "endBackgroundTask '\(name)' \(id) after \(VirtualTime.seconds(heldFor))"
        case .endBackgroundTaskIgnored(let id):
            "endBackgroundTask \(id) ignored: no such background task is running"
        case .workStarted(let name, let duration):
            "work '\(name)' started, needs \(VirtualTime.seconds(duration))"
        case .workFinished(let name):
            "work '\(name)' finished"
        case .workRefused(let name, let reason):
            "work '\(name)' refused: \(reason)"
        case .workFrozen(let name, let remaining):
            "work '\(name)' frozen with \(VirtualTime.seconds(remaining)) left: a suspended app runs no code"
        case .workResumed(let name, let remaining):
            "work '\(name)' resumed with \(VirtualTime.seconds(remaining)) left"
        case .workLost(let name, let remaining):
            "work '\(name)' lost with \(VirtualTime.seconds(remaining)) left"
        case .memoryWarning:
            "memory warning delivered to the running app, which keeps running"
        case .backgroundLaunchesSuppressed:
            "background launches suppressed until the user opens the app"
        case .backgroundLaunchRefused(let reason):
            "background launch refused: \(reason)"
        case .ignored(let event, let reason):
            "\(event) ignored: \(reason)"
        }
    }

    /// The event as one JSON object: `time` and `seconds` (the offset), `event` (the kind's name),
    /// `state` (after the event), the kind's own fields, and `text` (the log line without its time).
    public var jsonObject: JSONObject {
        var object: JSONObject = [
            "time": .string(VirtualTime.format(offset)),
            "seconds": VirtualTime.json(offset),
            "event": .string(name),
            "state": .string(state.rawValue),
        ]
        switch kind {
        case .transition(let from, let to, let cause):
            object["from"] = .string(from.rawValue)
            object["to"] = .string(to.rawValue)
            object["cause"] = .string(cause.name)
            if case .expired(let tasks) = cause {
                object["tasks"] = .array(tasks.map { .string($0) })
            }
        case .backgroundTaskBegan(let id, let name):
            object["task"] = .string(name)
            object["id"] = .number(Double(id.rawValue))
        case .backgroundTaskRefused(let name, let reason):
            object["task"] = .string(name)
            object["reason"] = .string(reason)
        case .backgroundTimeGranted(let deadline):
            object["deadline"] = VirtualTime.json(deadline)
        case .expirationHandlerCalled(let id, let name, let remaining),
            .expirationHandlerMissing(let id, let name, let remaining):
            object["task"] = .string(name)
            object["id"] = .number(Double(id.rawValue))
            object["remaining"] = VirtualTime.json(remaining)
        case .backgroundTaskEnded(let id, let name, let heldFor):
            object["task"] = .string(name)
            object["id"] = .number(Double(id.rawValue))
            object["heldFor"] = VirtualTime.json(heldFor)
        case .endBackgroundTaskIgnored(let id):
            object["id"] = .number(Double(id.rawValue))
        case .workStarted(let name, let duration):
            object["work"] = .string(name)
            object["duration"] = VirtualTime.json(duration)
        case .workFinished(let name):
            object["work"] = .string(name)
        case .workRefused(let name, let reason):
            object["work"] = .string(name)
            object["reason"] = .string(reason)
        case .workFrozen(let name, let remaining), .workResumed(let name, let remaining),
            .workLost(let name, let remaining):
            object["work"] = .string(name)
            object["remaining"] = VirtualTime.json(remaining)
        case .memoryWarning, .backgroundLaunchesSuppressed:
            break
        case .backgroundLaunchRefused(let reason):
            object["reason"] = .string(reason)
        case .ignored(let event, let reason):
            object["ignored"] = .string(event)
            object["reason"] = .string(reason)
        }
        object["text"] = .string(text)
        return object
    }

    /// The kind's name in JSON.
    public var name: String {
        switch kind {
        case .transition: "transition"
        case .backgroundTaskBegan: "backgroundTaskBegan"
        case .backgroundTaskRefused: "backgroundTaskRefused"
        case .backgroundTimeGranted: "backgroundTimeGranted"
        case .expirationHandlerCalled: "expirationHandlerCalled"
        case .expirationHandlerMissing: "expirationHandlerMissing"
        case .backgroundTaskEnded: "backgroundTaskEnded"
        case .endBackgroundTaskIgnored: "endBackgroundTaskIgnored"
        case .workStarted: "workStarted"
        case .workFinished: "workFinished"
        case .workRefused: "workRefused"
        case .workFrozen: "workFrozen"
        case .workResumed: "workResumed"
        case .workLost: "workLost"
        case .memoryWarning: "memoryWarning"
        case .backgroundLaunchesSuppressed: "backgroundLaunchesSuppressed"
        case .backgroundLaunchRefused: "backgroundLaunchRefused"
        case .ignored: "ignored"
        }
    }

    /// The transition this event records, if it is one.
    public var transition: (from: AppState, to: AppState, cause: TransitionCause)? {
        if case .transition(let from, let to, let cause) = kind { (from, to, cause) } else { nil }
    }
}

/// Why the app changed state.
public enum TransitionCause: Sendable, Hashable {
    /// The user tapped the app: a cold launch into the foreground, or a return to it.
    case userOpened
    /// The system launched (or woke) the app in the background, e.g. to run a scheduled task.
    case backgroundLaunch
    /// The user switched away from the app.
    case userLeft
    /// The app is in the background and holds no background task, so the system suspends it.
    case noBackgroundTask
    /// The background time ran out with these tasks (by name) not ended: the system kills the app.
    case expired([String])
    /// The system needed memory and killed the suspended app, which gets no callback.
    case memoryPressure
    /// The user swiped the app away in the app switcher.
    case forceQuit

    /// The cause's name in JSON.
    public var name: String {
        switch self {
        case .userOpened: "userOpened"
        case .backgroundLaunch: "backgroundLaunch"
        case .userLeft: "userLeft"
        case .noBackgroundTask: "noBackgroundTask"
        case .expired: "expired"
        case .memoryPressure: "memoryPressure"
        case .forceQuit: "forceQuit"
        }
    }

    /// The log's words for the cause of a transition out of `from`.
    func explanation(from: AppState) -> String {
        switch self {
        case .userOpened:
            from == .terminated ? "launched by the user" : "opened by the user"
        case .backgroundLaunch:
            from == .terminated ? "launched in the background by the system" : "woken in the background by the system"
        case .userLeft:
            "the user left the app"
        case .noBackgroundTask:
            "no background task is running"
        case .expired(let tasks):
            (tasks.count == 1 ? "background task " : "background tasks ")
                + tasks.map { "'\($0)'" }.joined(separator: ", ") + " expired without endBackgroundTask"
        case .memoryPressure:
            "killed under memory pressure, without a callback"
        case .forceQuit:
            "force-quit by the user"
        }
    }
}

/// Virtual time as the log prints it, at millisecond resolution.
enum VirtualTime {
    /// `+HH:MM:SS.mmm`; hours keep counting past 24, so a month-long run stays sortable by eye.
    static func format(_ offset: Duration) -> String {
        let total = milliseconds(offset)
        let sign = total < 0 ? "-" : "+"
        let magnitude = abs(total)
        let hours = magnitude / 3_600_000
        let minutes = magnitude / 60_000 % 60
        let seconds = magnitude / 1000 % 60
        return sign + pad(hours, 2) + ":" + pad(minutes, 2) + ":" + pad(seconds, 2) + "." + pad(magnitude % 1000, 3)
    }

    /// A duration for the log: `20 s`, `2.5 s`.
    static func seconds(_ duration: Duration) -> String {
        let total = milliseconds(duration)
        guard total % 1000 != 0 else { return "\(total / 1000) s" }
        var fraction = pad(abs(total) % 1000, 3)
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return (total < 0 ? "-" : "") + "\(abs(total) / 1000).\(fraction) s"
    }

    /// Seconds as a JSON number: `31`, `2.5`.
    static func json(_ duration: Duration) -> JSONValue {
        .number(Double(milliseconds(duration)) / 1000)
    }

    /// Whole milliseconds, to the nearest (half away from zero).
    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let half: Int64 = attoseconds < 0 ? -500_000_000_000_000 : 500_000_000_000_000
        return seconds * 1000 + (attoseconds + half) / 1_000_000_000_000_000
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
