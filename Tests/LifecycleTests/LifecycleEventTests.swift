import Domain
import Foundation
import Testing

@testable import Lifecycle

@Suite("State log lines")
struct LifecycleEventTests {
    @Test("a line is the virtual time, then what happened")
    func textLine() {
        let event = LifecycleEvent(
            offset: .seconds(31), kind: .transition(from: .background, to: .terminated, cause: .expired(["upload"])),
            state: .terminated)
        #expect(
            event.description
                == "+00:00:31.000 background → terminated: background task 'upload' expired without endBackgroundTask")
    }

    @Test("times show milliseconds, and hours keep counting past a day")
    func timeFormat() {
        let fraction = LifecycleEvent(offset: .seconds(2.5), kind: .memoryWarning, state: .active)
        #expect(fraction.description.hasPrefix("+00:00:02.500 "))
        let month = LifecycleEvent(
            offset: .seconds(30 * 86_400 + 61) + .milliseconds(7), kind: .memoryWarning, state: .active)
        #expect(month.description.hasPrefix("+720:01:01.007 "))
    }

    @Test("durations print as whole or fractional seconds")
    func durations() {
        let whole = LifecycleEvent(
            offset: .seconds(0), kind: .workStarted(name: "a", duration: .seconds(20)), state: .active)
        let fraction = LifecycleEvent(
            offset: .seconds(0), kind: .workStarted(name: "a", duration: .seconds(2.25)), state: .active)
        #expect(whole.text == "work 'a' started, needs 20 s")
        #expect(fraction.text == "work 'a' started, needs 2.25 s")
    }

    @Test("the JSON object carries the time, the kind, the state after it, its fields and the text")
    func json() {
        let event = LifecycleEvent(
            offset: .seconds(31),
            kind: .transition(from: .background, to: .terminated, cause: .expired(["upload", "sync"])),
            state: .terminated)
        #expect(
            event.jsonObject.jsonText
                == #"{"time":"+00:00:31.000","seconds":31,"event":"transition","state":"terminated","from":"background","to":"terminated","cause":"expired","tasks":["upload","sync"],"text":"background → terminated: background tasks 'upload', 'sync' expired without endBackgroundTask"}"#
        )
    }

    @Test("JSON seconds print at the log's millisecond resolution")
    func jsonSeconds() {
        let event = LifecycleEvent(offset: .milliseconds(2_500) + .nanoseconds(1), kind: .memoryWarning, state: .active)
        #expect(event.jsonObject.jsonText.hasPrefix(#"{"time":"+00:00:02.500","seconds":2.5,"event":"memoryWarning","#))
    }
}
