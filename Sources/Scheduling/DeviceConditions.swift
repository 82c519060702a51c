import Domain

/// What a processing request's conditions are checked against.
public struct DeviceConditions: Sendable, Hashable {
    /// On mains or USB power, or a machine with no battery.
    public var isOnExternalPower: Bool
    /// A non-loopback network interface is up and running with an address.
    public var hasNetworkConnectivity: Bool

    public init(isOnExternalPower: Bool, hasNetworkConnectivity: Bool) {
        self.isOnExternalPower = isOnExternalPower
        self.hasNetworkConnectivity = hasNetworkConnectivity
    }

    /// Whether a request with these requirements may run now.
    func allow(requiresExternalPower: Bool, requiresNetwork: Bool) -> Bool {
        (!requiresExternalPower || isOnExternalPower) && (!requiresNetwork || hasNetworkConnectivity)
    }
}

/// Where the scheduler learns the machine's conditions: `MachineConditions` reads the real machine;
/// tests and the lifecycle simulator set them with `FixedConditions` or `ManualConditions`.
public protocol ConditionsProvider: Sendable {
    /// The conditions now. Called before every claim, so a change (unplugging) is seen by the next one.
    func currentConditions() -> DeviceConditions
}

/// Conditions that never change.
public struct FixedConditions: ConditionsProvider {
    public let conditions: DeviceConditions

    public init(isOnExternalPower: Bool = true, hasNetworkConnectivity: Bool = true) {
        conditions = DeviceConditions(
            isOnExternalPower: isOnExternalPower, hasNetworkConnectivity: hasNetworkConnectivity)
    }

    public func currentConditions() -> DeviceConditions { conditions }
}

/// Conditions a test or a simulation changes as it goes (plugging in, losing the network).
public final class ManualConditions: ConditionsProvider {
    private let state: Locked<DeviceConditions>

    public init(isOnExternalPower: Bool = true, hasNetworkConnectivity: Bool = true) {
        state = Locked(
            DeviceConditions(isOnExternalPower: isOnExternalPower, hasNetworkConnectivity: hasNetworkConnectivity))
    }

    public func currentConditions() -> DeviceConditions { state.withLock { $0 } }

    public func set(_ conditions: DeviceConditions) {
        state.withLock { $0 = conditions }
    }
}
