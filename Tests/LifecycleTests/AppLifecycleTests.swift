import Domain
import Foundation
import Lifecycle
import Testing

@Suite("The app lifecycle state machine")
struct AppLifecycleTests {
    /// An app opened at 0 and sent to the background at `leaveAt`, holding one task named 'upload'
    /// begun in the foreground, with `expirationHandler`.
    private func backgroundedApp(
        leaveAt: Duration = .seconds(10), expirationHandler: ((AppLifecycle, BackgroundTaskIdentifier) -> Void)? = nil
    ) -> (AppLifecycle, BackgroundTaskIdentifier) {
        let app = AppLifecycle()
        app.open()
        var id = BackgroundTaskIdentifier.invalid
        if let expirationHandler {
            id = app.beginBackgroundTask(name: "upload") { expirationHandler(app, id) }
        } else {
            id = app.beginBackgroundTask(name: "upload")
        }
        app.advance(to: leaveAt)
        app.enterBackground()
        return (app, id)
    }

    @Test("a backgrounded app with no background task is suspended at once")
    func suspendedWithoutTask() {
        let app = AppLifecycle()
        app.open()
        app.advance(to: .seconds(5))
        app.enterBackground()
        #expect(app.state == .suspended)
        #expect(
            app.events.steps == [
                Step(.terminated, .active, .userOpened), Step(.active, .background, .userLeft),
                Step(.background, .suspended, .noBackgroundTask),
            ])
        #expect(app.backgroundTimeRemaining == nil)
    }

    @Test("the 30 s window starts when the app leaves the foreground, not when the task was begun")
    func windowStartsOnLeaving() {
        let (app, _) = backgroundedApp(leaveAt: .seconds(100))
        #expect(app.state == .background)
        #expect(app.backgroundTimeRemaining == .seconds(30))
        #expect(app.events.contains(.backgroundTimeGranted(deadline: .seconds(130))))
        app.advance(to: .milliseconds(129_999))
        #expect(app.state == .background)
        app.advance(to: .seconds(130))
        #expect(app.state == .terminated)
    }

    @Test("the expiration handler is called 5 s before the deadline; ending the task there suspends the app")
    func handlerEndsTask() {
        var calledAt: Duration?
        let (app, id) = backgroundedApp(leaveAt: .seconds(10)) { app, id in
            calledAt = app.elapsed
            app.endBackgroundTask(id)
        }
        app.advance(to: .seconds(3600))
        #expect(calledAt == .seconds(35))
        #expect(app.state == .suspended)
        #expect(app.events.steps.last == Step(.background, .suspended, .noBackgroundTask))
        #expect(app.events.contains(.expirationHandlerCalled(id, name: "upload", remaining: .seconds(5))))
        #expect(!app.events.steps.contains { $0.to == .terminated })
    }

    @Test("a task still held at the deadline gets the app killed, and its unfinished work is lost")
    func overrunKills() {
        var handlerCalls = 0
        let (app, _) = backgroundedApp(leaveAt: .seconds(1)) { _, _ in handlerCalls += 1 }
        var finished = false
        app.submitWork(named: "upload", duration: .seconds(45)) { finished = true }
        app.advance(to: .seconds(600))
        #expect(handlerCalls == 1)
        #expect(!finished)
        #expect(app.state == .terminated)
        #expect(app.events.steps.last == Step(.background, .terminated, .expired(["upload"])))
        #expect(
            app.events.offset { $0 == .transition(from: .background, to: .terminated, cause: .expired(["upload"])) }
                == .seconds(31))
        let lost = app.events.first { if case .workLost = $0.kind { true } else { false } }
        #expect(lost?.kind == .workLost(name: "upload", remaining: .seconds(15)))
    }

    @Test("a task without an expiration handler is flagged 5 s before the deadline and killed at it")
    func missingHandler() throws {
        let (app, id) = backgroundedApp(leaveAt: .seconds(0))
        app.advance(to: .seconds(60))
        #expect(app.events.contains(.expirationHandlerMissing(id, name: "upload", remaining: .seconds(5))))
        let flagged = try #require(app.events.offset { if case .expirationHandlerMissing = $0 { true } else { false } })
        #expect(flagged == .seconds(25))
        #expect(app.state == .terminated)
    }

    @Test("ending the task inside the window suspends the app and nothing expires later")
    func endsInWindow() {
        let app = AppLifecycle()
        app.open()
        app.advance(to: .seconds(1))
        app.enterBackground {
            var upload = BackgroundTaskIdentifier.invalid
            upload = app.beginBackgroundTask(name: "upload")
            app.submitWork(named: "upload", duration: .seconds(20)) { app.endBackgroundTask(upload) }
        }
        app.advance(to: .seconds(3600))
        #expect(app.state == .suspended)
        #expect(
            app.events.offset { $0 == .transition(from: .background, to: .suspended, cause: .noBackgroundTask) }
                == .seconds(21))
        #expect(!app.events.contains { if case .expirationHandlerCalled = $0.kind { true } else { false } })
    }

    @Test("work that finishes exactly at the deadline counts as done in time")
    func finishesAtDeadline() {
        let app = AppLifecycle()
        app.open()
        app.enterBackground {
            var task = BackgroundTaskIdentifier.invalid
            task = app.beginBackgroundTask(name: "save") { /* leaves the ending to the work */  }
            app.submitWork(named: "save", duration: .seconds(30)) { app.endBackgroundTask(task) }
        }
        app.advance(to: .seconds(100))
        #expect(app.state == .suspended)
    }

    @Test("tasks share one window: a task begun late in the background does not extend it")
    func sharedWindow() {
        let (app, _) = backgroundedApp(leaveAt: .seconds(0))
        app.advance(to: .seconds(20))
        let late = app.beginBackgroundTask(name: "late")
        #expect(late != .invalid)
        #expect(app.backgroundTimeRemaining == .seconds(10))
        app.advance(to: .seconds(30))
        #expect(app.state == .terminated)
        #expect(app.events.steps.last?.cause == .expired(["upload", "late"]))
    }

    @Test("beginBackgroundTask returns .invalid while suspended, terminated, or once time is about to expire")
    func refusedTasks() {
        let app = AppLifecycle()
        #expect(app.beginBackgroundTask(name: "cold") == .invalid)
        app.open()
        app.enterBackground()
        #expect(app.state == .suspended)
        #expect(app.beginBackgroundTask(name: "frozen") == .invalid)

        let (late, _) = backgroundedApp(leaveAt: .seconds(0)) { app, _ in
            #expect(app.beginBackgroundTask(name: "more time") == .invalid)
        }
        late.advance(to: .seconds(26))
        #expect(
            late.events.contains(
                .backgroundTaskRefused(name: "more time", reason: "background time is about to expire")))
        #expect(app.events.contains(.backgroundTaskRefused(name: "cold", reason: "the app is terminated")))
        #expect(app.events.contains(.backgroundTaskRefused(name: "frozen", reason: "the app is suspended")))
    }

    @Test("work is refused while the app is suspended or terminated, and accepted while it runs")
    func refusedWork() {
        let app = AppLifecycle()
        #expect(!app.submitWork(named: "a", duration: .seconds(1)))
        app.open()
        #expect(app.submitWork(named: "b", duration: .seconds(1)))
        app.enterBackground()
        #expect(!app.submitWork(named: "c", duration: .seconds(1)))
        app.memoryPressure()
        #expect(!app.submitWork(named: "d", duration: .seconds(1)))
        #expect(app.events.contains(.workRefused(name: "a", reason: "the app is terminated")))
        #expect(app.events.contains(.workRefused(name: "c", reason: "the app is suspended")))
        #expect(app.events.contains(.workRefused(name: "d", reason: "the app is terminated")))
    }

    @Test("work freezes while the app is suspended and resumes where it stopped when the user returns")
    func frozenWork() throws {
        let app = AppLifecycle()
        app.open()
        var finishedAt: Duration?
        app.submitWork(named: "index", duration: .seconds(60)) { finishedAt = app.elapsed }
        app.advance(to: .seconds(20))
        app.enterBackground()
        #expect(app.events.contains(.workFrozen(name: "index", remaining: .seconds(40))))
        app.advance(to: .seconds(1000))
        #expect(finishedAt == nil)
        app.open()
        #expect(app.events.contains(.workResumed(name: "index", remaining: .seconds(40))))
        app.advance(to: .seconds(2000))
        #expect(finishedAt == .seconds(1040))
    }

    @Test("memory pressure warns a running app and kills a suspended one without any callback")
    func memoryPressure() {
        let app = AppLifecycle()
        var warnings = 0
        app.onMemoryWarning = { warnings += 1 }
        app.open()
        app.memoryPressure()
        #expect(app.state == .active)
        #expect(warnings == 1)
        app.enterBackground()
        app.memoryPressure()
        #expect(app.state == .terminated)
        #expect(warnings == 1)
        #expect(app.events.steps.last == Step(.suspended, .terminated, .memoryPressure))
    }

    @Test("a return to the foreground ends the window; leaving again starts a fresh one")
    func foregroundEndsWindow() {
        var handlerCalls = 0
        let (app, _) = backgroundedApp(leaveAt: .seconds(0)) { _, _ in handlerCalls += 1 }
        app.advance(to: .seconds(20))
        app.open()
        #expect(app.backgroundTimeRemaining == nil)
        app.advance(to: .seconds(500))
        #expect(app.state == .active)
        #expect(handlerCalls == 0)
        app.enterBackground()
        #expect(app.backgroundTimeRemaining == .seconds(30))
        app.advance(to: .seconds(530))
        #expect(handlerCalls == 1)
        #expect(app.state == .terminated)
    }

    @Test("a force-quit stops background launches until the user opens the app")
    func forceQuit() {
        let app = AppLifecycle()
        app.open()
        app.forceQuit()
        #expect(app.state == .terminated)
        #expect(app.isBackgroundLaunchSuppressed)
        var ran = false
        #expect(!app.launchInBackground { ran = true })
        #expect(!ran)
        #expect(app.state == .terminated)
        app.open()
        app.enterBackground()
        #expect(app.launchInBackground { ran = true })
        #expect(ran)
    }

    @Test("a background launch runs its callback in the background, then suspends an app that holds no task")
    func backgroundLaunch() {
        let app = AppLifecycle()
        var stateInside: AppState?
        app.launchInBackground { stateInside = app.state }
        #expect(stateInside == .background)
        #expect(app.state == .suspended)
        #expect(
            app.events.steps == [
                Step(.terminated, .background, .backgroundLaunch),
                Step(.background, .suspended, .noBackgroundTask),
            ])
        #expect(app.launchInBackground())
        #expect(
            app.events.steps.suffix(2) == [
                Step(.suspended, .background, .backgroundLaunch),
                Step(.background, .suspended, .noBackgroundTask),
            ])
        app.open()
        #expect(!app.launchInBackground())
        #expect(app.state == .active)
    }

    @Test("ending a task twice, or an invalid one, is logged and changes nothing")
    func endTwice() {
        let app = AppLifecycle()
        app.open()
        let id = app.beginBackgroundTask(name: "x")
        app.endBackgroundTask(id)
        app.endBackgroundTask(id)
        app.endBackgroundTask(.invalid)
        #expect(app.state == .active)
        #expect(app.events.filter { $0.kind == .endBackgroundTaskIgnored(id) }.count == 1)
        #expect(app.events.contains(.endBackgroundTaskIgnored(.invalid)))
    }

    @Test("the clock reads the start plus the virtual time elapsed, and moves only with advance")
    func virtualClock() {
        let start = Date(timeIntervalSince1970: 1_772_323_200)  // 2026-03-01T00:00:00Z
        let app = AppLifecycle(start: start)
        #expect(abs(app.clock.now.timeIntervalSince(start)) < dateTolerance)
        app.advance(by: .seconds(90))
        #expect(abs(app.clock.now.timeIntervalSince(start) - 90) < dateTolerance)
        #expect(app.elapsed == .seconds(90))
    }
}
