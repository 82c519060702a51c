import Foundation
import TestSupport
import Testing

@Suite("pipeline audit")
struct AuditCommandTests {
    static func write(_ files: [String: String]) throws -> TemporaryDirectory {
        let directory = TemporaryDirectory("audit")
        for (name, text) in files {
            let url = directory.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return directory
    }

    static let registeredInView = """
        import SwiftUI
        import BackgroundTasks

        struct ContentView: View {
            var body: some View {
                Text("Hello").onAppear {
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
                        task.setTaskCompleted(success: true)
                    }
                }
            }
        }
        """

    @Test("a registration inside .onAppear is reported with its line and rule, and the exit status is 1")
    func findingFails() async throws {
        let tree = try Self.write(["App/ContentView.swift": Self.registeredInView])
        let run = await runCLI(["audit", tree.url.path])
        #expect(run.status == 1)
        #expect(run.stdout.contains("ContentView.swift"))
        #expect(run.stdout.contains("register-outside-launch"))
        #expect(run.stdout.contains("  7:36  critical  register-outside-launch"))
        let json = await runCLI(["audit", tree.url.path, "--json"])
        #expect(json.status == 1)
        #expect(json.stdout.contains(#""rule":"register-outside-launch""#))
    }

    @Test("the same code in a comment is not code: no finding, exit 0")
    func commentIsNotCode() async throws {
        let commented = "/*\n" + Self.registeredInView + "\n*/\n"
        let tree = try Self.write(["App/ContentView.swift": commented])
        let run = await runCLI(["audit", tree.url.path])
        #expect(run.status == 0)
        #expect(!run.stdout.contains("register-outside-launch"))
    }

    @Test("--fail-on decides which severities fail the run")
    func failOn() async throws {
        let requirements = """
            import BackgroundTasks
            func schedule() {
                let request = BGAppRefreshTaskRequest(identifier: "com.example.refresh")
                request.requiresExternalPower = true
                try? BGTaskScheduler.shared.submit(request)
            }
            """
        let tree = try Self.write(["Scheduler.swift": requirements])
        let run = await runCLI(["audit", tree.url.path, "--json"])
        let findsMedium = run.stdout.contains(#""severity":"medium""#)
        #expect(findsMedium)
        let strict = await runCLI(["audit", tree.url.path, "--fail-on", "low"])
        #expect(strict.status == 1)
    }

    @Test("--format sarif writes a SARIF 2.1.0 log; --json with another format is a usage error")
    func sarif() async throws {
        let tree = try Self.write([
            "App/ContentView.swift": Self.registeredInView, "Pods/SDK/Vendor.swift": Self.registeredInView,
        ])
        let run = await runCLI(["audit", tree.url.path, "--format", "sarif"])
        #expect(run.status == 1)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        #expect(run.stdout.contains(#""ruleId":"register-outside-launch""#))
        #expect(!run.stdout.contains("Vendor.swift"))
        #expect(run.stdout.contains(#"/Pods/""#) && run.stdout.contains("CocoaPods dependencies"))
        let text = await runCLI(["audit", tree.url.path])
        #expect(text.stdout.contains("Skipped:") && text.stdout.contains("/Pods/: CocoaPods dependencies"))
        let both = await runCLI(["audit", tree.url.path, "--json", "--format", "sarif"])
        #expect(both.status == 64)
        #expect(both.stderr.contains("--format sarif"))
    }

    @Test("a path that does not exist is a usage error naming it")
    func missingPath() async throws {
        let run = await runCLI(["audit", "/no/such/folder"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("/no/such/folder"))
    }
}
