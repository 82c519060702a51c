import Foundation
import Lifecycle
import TestSupport
import Testing

@Suite("pipeline simulate")
struct SimulateCommandTests {
    @Test("--scenario prints the scenario's state log, one line per event", arguments: LifecycleScenario.allCases)
    func textLog(scenario: LifecycleScenario) async {
        let run = await runCLI(["simulate", "--scenario", scenario.rawValue])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.stdout == scenario.run().map { $0.description + "\n" }.joined())
    }

    @Test("overruns-window shows the kill at the deadline after the expiration handler")
    func overrunLines() async {
        let run = await runCLI(["simulate", "--scenario", "overruns-window"])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let handler = lines.firstIndex(of: "+00:00:26.000 expiration handler of 'upload' #1 called, 5 s left")
        let kill = lines.firstIndex(
            of: "+00:00:31.000 background → terminated: background task 'upload' expired without endBackgroundTask")
        #expect(handler != nil && kill != nil && handler! < kill!)
    }

    @Test("--json prints one parseable object per event, with the same text")
    func jsonLog() async throws {
        let run = await runCLI(["simulate", "--scenario", "memory-pressure", "--json"])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        let events = LifecycleScenario.memoryPressure.run()
        #expect(lines.count == events.count)
        for (line, event) in zip(lines, events) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["text"] as? String == event.text)
            #expect(object["state"] as? String == event.state.rawValue)
        }
    }

    @Test("with no options the three scenarios play one after the other, each under its name, as --scenario plays it")
    func allScenarios() async throws {
        let all = await runCLI(["simulate"])
        #expect(all.status == 0 && all.stderr.isEmpty)
        let expected = LifecycleScenario.allCases.map { scenario in
            (["scenario \(scenario.rawValue): \(scenario.summary)"] + scenario.run().map(\.description))
                .joined(separator: "\n")
        }
        #expect(all.stdout == expected.joined(separator: "\n\n") + "\n")

        let json = await runCLI(["simulate", "--json"])
        let names = try json.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["scenario"]
                as? String
        }
        let expectedNames = LifecycleScenario.allCases.flatMap { scenario in
            scenario.run().map { _ in scenario.rawValue }
        }
        #expect(names == expectedNames)
    }

    @Test("an unknown scenario is a usage error")
    func usage() async {
        let unknown = await runCLI(["simulate", "--scenario", "crash"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("expected one of finishes-in-window, overruns-window, memory-pressure"))
    }
}
