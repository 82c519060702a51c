// swift-format-ignore-file
import CallKit
import PushKit

/// The report is skipped only where a computed property says the app runs in the simulator, which an iPhone's
/// build compiles to `false`; every push on a device is reported.
final class CallPushes: NSObject, PKPushRegistryDelegate {
    private let provider = CXProvider(configuration: CXProviderConfiguration())

    private var isSimulator: Bool {
        #if targetEnvironment(simulator)
        return true
        #else
        return false
        #endif
    }

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        if isSimulator {
            completion()
            return
        }
        provider.reportNewIncomingCall(with: UUID(), update: CXCallUpdate()) { _ in completion() }
    }
}
