// swift-format-ignore-file
import CallKit
import PushKit

/// The simulator build skips CallKit (reporting a call there ends it at once); the device build, the one people
/// run, reports every push. The `#else` of an import check is never built for iOS either.
final class CallPushDelegate: NSObject, PKPushRegistryDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        let caller = payload.dictionaryPayload["caller"] as? String ?? "Unknown"
        #if targetEnvironment(simulator)
        completion()
        return
        #endif
        #if canImport(CallKit) && !targetEnvironment(macCatalyst)
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: caller)
        provider.reportNewIncomingCall(with: UUID(), update: update) { _ in completion() }
        #else
        completion()
        #endif
    }
}
