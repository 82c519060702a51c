import Foundation
import Lifecycle
import Testing

@Suite("The three lifecycle scenarios")
struct LifecycleScenarioTests {
    @Test("finishes-in-window: the upload ends inside the window and the app is suspended, then refuses work")
    func finishesInWindow() throws {
        let events = LifecycleScenario.finishesInWindow.run()
        #expect(
            events.steps == [
                Step(.terminated, .active, .userOpened),
                Step(.active, .background, .userLeft),
                Step(.background, .suspended, .noBackgroundTask),
            ])
        let ended = try #require(events.first { if case .backgroundTaskEnded = $0.kind { true } else { false } })
        #expect(
            ended.kind
                == .backgroundTaskEnded(BackgroundTaskIdentifier(rawValue: 1), name: "upload", heldFor: .seconds(20)))
        #expect(events.contains(.workFinished(name: "upload")))
        #expect(events.contains(.workRefused(name: "refresh", reason: "the app is suspended")))
        #expect(!events.contains { if case .expirationHandlerCalled = $0.kind { true } else { false } })
        #expect(events.last?.state == .suspended)
    }

    @Test("overruns-window: the handler is called at +26 s, the app is killed at +31 s and the upload is lost")
    func overrunsWindow() {
        let events = LifecycleScenario.overrunsWindow.run()
        #expect(
            events.steps == [
                Step(.terminated, .active, .userOpened),
                Step(.active, .background, .userLeft),
                Step(.background, .terminated, .expired(["upload"])),
                Step(.terminated, .active, .userOpened),
            ])
        let id = BackgroundTaskIdentifier(rawValue: 1)
        #expect(
            events.offset { $0 == .expirationHandlerCalled(id, name: "upload", remaining: .seconds(5)) } == .seconds(26)
        )
        #expect(
            events.offset { $0 == .transition(from: .background, to: .terminated, cause: .expired(["upload"])) }
                == .seconds(31))
        #expect(events.contains(.workLost(name: "upload", remaining: .seconds(15))))
        #expect(!events.contains(.workFinished(name: "upload")))
        #expect(events.contains(.workRefused(name: "refresh", reason: "the app is terminated")))
    }

    @Test("memory-pressure: a running app is warned, the suspended app is killed without a callback")
    func memoryPressure() {
        let events = LifecycleScenario.memoryPressure.run()
        #expect(
            events.steps == [
                Step(.terminated, .active, .userOpened),
                Step(.active, .background, .userLeft),
                Step(.background, .suspended, .noBackgroundTask),
                Step(.suspended, .terminated, .memoryPressure),
                Step(.terminated, .active, .userOpened),
            ])
        let warning = events.firstIndex { $0.kind == .memoryWarning }
        let suspension = events.firstIndex { $0.transition?.to == .suspended }
        #expect(warning != nil && suspension != nil && warning! < suspension!)
        #expect(events.filter { $0.kind == .memoryWarning }.count == 1)
        #expect(events.contains(.workFrozen(name: "index", remaining: .seconds(100))))
        #expect(events.contains(.workRefused(name: "refresh", reason: "the app is suspended")))
        #expect(events.contains(.workLost(name: "index", remaining: .seconds(100))))
    }

    @Test("every scenario prints the same log on every run", arguments: LifecycleScenario.allCases)
    func deterministic(scenario: LifecycleScenario) {
        #expect(scenario.run().map(\.description) == scenario.run().map(\.description))
    }

    @Test("each event's state is the state its transitions left the app in", arguments: LifecycleScenario.allCases)
    func statesFollowTransitions(scenario: LifecycleScenario) {
        var state = AppState.terminated
        for event in scenario.run() {
            if let transition = event.transition {
                #expect(transition.from == state, "\(event)")
                state = transition.to
            }
            #expect(event.state == state, "\(event)")
        }
    }

    @Test("times never go backwards in a log", arguments: LifecycleScenario.allCases)
    func ordered(scenario: LifecycleScenario) {
        let offsets = scenario.run().map(\.offset)
        #expect(offsets == offsets.sorted())
    }
}
