import Domain
import Foundation
import TestSupport
import Testing

@testable import Scheduling

@Suite("Conditions", .timeLimit(.minutes(10)))
struct ConditionsTests {
    static func processing(power: Bool = false, network: Bool = false) -> TestTask {
        TestTask(
            identifier: "processing",
            chainStart: { scope, _ in
                ProcessingTaskRequest(
                    identifier: "processing", scope: scope, requiresExternalPower: power,
                    requiresNetworkConnectivity: network)
            },
            handler: { task in task.setTaskCompleted(success: true) })
    }

    @Test(
        "a processing request whose condition is unmet stays pending and does not run, until it is met",
        arguments: TestBackend.all)
    func unmetConditions(backend: TestBackend) async throws {
        for (power, network) in [(true, false), (false, true)] {
            let harness = try SchedulerHarness(backend)
            try await harness.addUsers(["ada"])
            harness.conditions.set(DeviceConditions(isOnExternalPower: !power, hasNetworkConnectivity: !network))
            let report = try await harness.launch([Self.processing(power: power, network: network)])
            #expect(report.runs.isEmpty)
            #expect(report.waitingForConditions.map(\.identifier) == ["processing"])
            let pending = try #require(try await harness.scheduler().pendingRequests().first)
            #expect(pending.isPending && pending.attempts == 0)
            #expect(try await harness.history().isEmpty)

            harness.conditions.set(DeviceConditions(isOnExternalPower: true, hasNetworkConnectivity: true))
            let next = try await harness.launch([Self.processing(power: power, network: network)])
            #expect(next.runs.map(\.outcome) == [.success])
        }
    }

    @Test("refresh requests have no conditions: they run on battery and offline", arguments: TestBackend.all)
    func refreshIgnoresConditions(backend: TestBackend) async throws {
        let harness = try SchedulerHarness(backend)
        try await harness.addUsers(["ada"])
        harness.conditions.set(DeviceConditions(isOnExternalPower: false, hasNetworkConnectivity: false))
        let report = try await harness.launch([.periodic("refresh", every: 3600)])
        #expect(report.runs.map(\.outcome) == [.success])
    }

    /// Builds a power-supply class folder as the kernel lays it out.
    static func powerSupplies(_ supplies: [String: [String: String]]) throws -> TemporaryDirectory {
        let folder = TemporaryDirectory("power-supply")
        for (name, attributes) in supplies {
            let supply = folder.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: supply, withIntermediateDirectories: true)
            for (file, value) in attributes {
                try Data((value + "\n").utf8).write(to: supply.appendingPathComponent(file))
            }
        }
        return folder
    }

    @Test(
        "external power is read from the kernel's power-supply class",
        arguments: [
            // A server or desktop: no battery at all.
            ([:], true),
            (["AC": ["type": "Mains", "online": "0"]], true),
            // A laptop on battery, unplugged.
            (
                [
                    "AC": ["type": "Mains", "online": "0"],
                    "BAT0": ["type": "Battery", "status": "Discharging", "present": "1"],
                ], false
            ),
            // Plugged in, charging or full.
            (
                [
                    "AC": ["type": "Mains", "online": "1"],
                    "BAT0": ["type": "Battery", "status": "Charging", "present": "1"],
                ], true
            ),
            (["BAT0": ["type": "Battery", "status": "Full"]], true),
            // Plugged in over USB-C while the battery reports discharging (a weak charger): the supply is online.
            (
                [
                    "ucsi-source-psy-USBC000:001": ["type": "USB", "online": "1"],
                    "BAT0": ["type": "Battery", "status": "Discharging"],
                ], true
            ),
            // An empty battery bay does not count as a battery.
            (["BAT1": ["type": "Battery", "status": "Unknown", "present": "0"]], true),
            // A battery whose state is unknown and no supply online: not trusted to be on power.
            (["BAT0": ["type": "Battery", "status": "Unknown", "present": "1"]], false),
        ] as [([String: [String: String]], Bool)])
    func power(supplies: [String: [String: String]], expected: Bool) throws {
        let folder = try Self.powerSupplies(supplies)
        let conditions = MachineConditions(powerSupplyDirectory: folder.url.path).currentConditions()
        #expect(conditions.isOnExternalPower == expected)
    }

    @Test("network connectivity needs an interface other than loopback that is up, running and has an address")
    func network() {
        let loopback = NetworkInterface(
            name: "lo", isUp: true, isRunning: true, isLoopback: true, hasInternetAddress: true)
        let ethernet = NetworkInterface(
            name: "eth0", isUp: true, isRunning: true, isLoopback: false, hasInternetAddress: true)
        var down = ethernet
        down.isRunning = false
        var linkOnly = ethernet
        linkOnly.hasInternetAddress = false
        #expect(!NetworkInterface.hasConnectivity([]))
        #expect(!NetworkInterface.hasConnectivity([loopback]))
        #expect(!NetworkInterface.hasConnectivity([loopback, down, linkOnly]))
        #expect(NetworkInterface.hasConnectivity([loopback, ethernet]))
        // Every machine lists at least its loopback interface, and reading them is not an error.
        #expect(NetworkInterface.current().contains { $0.isLoopback })
    }
}
