import Domain
import Foundation
import Glibc

/// The conditions of the machine this runs on, read fresh at every call.
///
/// Power comes from the kernel's power-supply class (`/sys/class/power_supply/*/{type,online,status,present}`,
/// https://www.kernel.org/doc/html/latest/power/power_supply_class.html): an online mains or USB supply
/// means external power; otherwise a present battery that is discharging means battery power; a
/// machine with no battery at all (a server, a desktop) is on external power. The network comes
/// from `getifaddrs(3)`: connected when an interface other than loopback is up and running with an
/// IPv4 or IPv6 address.
public struct MachineConditions: ConditionsProvider {
    /// The power-supply class folder; tests point it at a folder they built.
    public let powerSupplyDirectory: String

    public init(powerSupplyDirectory: String = "/sys/class/power_supply") {
        self.powerSupplyDirectory = powerSupplyDirectory
    }

    /// The last reading and when it was taken. A launch asks before every claim; power and network
    /// change on a human time scale, so a reading is reused for `readingLifetime` instead of walking
    /// /sys and opening a netlink socket a thousand times in a cohort retrain.
    private let lastReading = Reading()

    private final class Reading: Sendable {
        let value = Locked<(taken: ContinuousClock.Instant, conditions: DeviceConditions)?>(nil)
    }

    /// How long a reading of the machine is reused.
    public static let readingLifetime: Duration = .seconds(2)

    public func currentConditions() -> DeviceConditions {
        let now = ContinuousClock.now
        if let reading = lastReading.value.withLock({ $0 }), now - reading.taken < Self.readingLifetime {
            return reading.conditions
        }
        let conditions = DeviceConditions(
            isOnExternalPower: PowerSupply.isOnExternalPower(PowerSupply.read(directory: powerSupplyDirectory)),
            hasNetworkConnectivity: NetworkInterface.hasConnectivity(NetworkInterface.current()))
        lastReading.value.withLock { $0 = (now, conditions) }
        return conditions
    }
}

/// One entry of the kernel's power-supply class.
struct PowerSupply: Sendable, Hashable {
    /// `Battery`, `Mains`, `USB`, `UPS`, …
    var type: String
    /// `online` (mains, USB): whether the supply is connected; `nil` when the file is absent.
    var online: Bool?
    /// `status` (batteries): `Charging`, `Discharging`, `Full`, `Not charging`, `Unknown`.
    var status: String?
    /// `present` (batteries): `false` for an empty battery bay.
    var present: Bool?

    /// Every supply under `directory`; none when the folder is missing (containers often lack it).
    static func read(directory: String) -> [PowerSupply] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.sorted().compactMap { name in
            let folder = directory + "/" + name
            func attribute(_ file: String) -> String? {
                (try? String(contentsOfFile: folder + "/" + file, encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            guard let type = attribute("type") else { return nil }
            return PowerSupply(
                type: type, online: attribute("online").map { $0 == "1" }, status: attribute("status"),
                present: attribute("present").map { $0 == "1" })
        }
    }

    static func isOnExternalPower(_ supplies: [PowerSupply]) -> Bool {
        if supplies.contains(where: { $0.type != "Battery" && $0.online == true }) { return true }
        let batteries = supplies.filter { $0.type == "Battery" && $0.present != false }
        guard !batteries.isEmpty else { return true }
        if batteries.contains(where: { $0.status == "Discharging" }) { return false }
        // No supply says it is online, but a battery charging, full or held at a charge threshold
        // ("Not charging") is plugged in; "Unknown" is not trusted.
        return batteries.contains { ["Charging", "Full", "Not charging"].contains($0.status) }
    }
}

/// One address of a network interface, as `getifaddrs(3)` lists it.
struct NetworkInterface: Sendable, Hashable {
    var name: String
    var isUp: Bool
    var isRunning: Bool
    var isLoopback: Bool
    /// An IPv4 or IPv6 address (not a link-layer entry).
    var hasInternetAddress: Bool

    static func current() -> [NetworkInterface] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return [] }
        defer { freeifaddrs(first) }
        var interfaces: [NetworkInterface] = []
        var cursor = first
        while let entry = cursor?.pointee {
            let flags = Int32(bitPattern: entry.ifa_flags)
            let family = entry.ifa_addr.map { Int32($0.pointee.sa_family) }
            interfaces.append(
                NetworkInterface(
                    name: String(cString: entry.ifa_name), isUp: flags & Int32(IFF_UP) != 0,
                    isRunning: flags & Int32(IFF_RUNNING) != 0,
                    isLoopback: flags & Int32(IFF_LOOPBACK) != 0,
                    hasInternetAddress: family == AF_INET || family == AF_INET6))
            cursor = entry.ifa_next
        }
        return interfaces
    }

    static func hasConnectivity(_ interfaces: [NetworkInterface]) -> Bool {
        interfaces.contains { $0.isUp && $0.isRunning && !$0.isLoopback && $0.hasInternetAddress }
    }
}
