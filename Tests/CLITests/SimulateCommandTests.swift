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

    @Test("a missing or unknown scenario is a usage error")
    func usage() async {
        let missing = await runCLI(["simulate"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("give either --scenario <name> or --device"))
        let unknown = await runCLI(["simulate", "--scenario", "crash"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("expected one of finishes-in-window, overruns-window, memory-pressure"))
    }
}
