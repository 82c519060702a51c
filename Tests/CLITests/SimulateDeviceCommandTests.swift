import Foundation
import TestSupport
import Testing

@Suite("pipeline simulate --device")
struct SimulateDeviceCommandTests {
    @Test("prints a row per day and a summary line per app, the same on every run")
    func table() async throws {
        let run = await runCLI(["simulate", "--device", "--days", "7"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let rows = lines.filter { $0.range(of: #"^ *[0-9]+  2026-03-[0-9]{2} "#, options: .regularExpression) != nil }
        #expect(rows.count == 7)
        let chain = try #require(lines.first { $0.hasPrefix("with launch chain: ml-retrain ran ") })
        #expect(chain.range(of: #"ran [1-7] of 7 days"#, options: .regularExpression) != nil)
        #expect(lines.contains { $0.hasPrefix("register only: ml-retrain ran 0 times;") })
        #expect(await runCLI(["simulate", "--device", "--days", "7"]).stdout == run.stdout)
    }

    @Test("--low-power leaves both apps without a run")
    func lowPower() async {
        let run = await runCLI(["simulate", "--device", "--days", "5", "--low-power"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("Low Power Mode on"))
        #expect(run.stdout.contains("with launch chain: ml-retrain ran 0 times; 0 task runs in 0 background launches"))
    }

    @Test("--json prints the settings, one object per day and one summary per app")
    func json() async throws {
        let run = await runCLI(["simulate", "--device", "--days", "4", "--force-quit-day", "2", "--json"])
        #expect(run.status == 0)
        let objects = try run.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["type"] as? String } == ["device", "day", "day", "day", "day", "summary", "summary"])
        #expect(objects[0]["forceQuitDay"] as? Int == 2)
        #expect(objects[2]["forceQuitAt"] as? String != nil)
        #expect(objects.last?["app"] as? String == "registerOnly")
        #expect(objects.last?["retrainDays"] as? Int == 0)
    }

    @Test(
        "--scenario and --device exclude each other, and device options need --device",
        arguments: [
            ["simulate", "--scenario", "overruns-window", "--device"],
            ["simulate", "--refresh-denied"],
            ["simulate", "--scenario", "overruns-window", "--low-power"],
            ["simulate", "--device", "--days", "5", "--force-quit-day", "6"],
        ])
    func usage(arguments: [String]) async {
        let run = await runCLI(arguments)
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("Error: "))
    }
}
