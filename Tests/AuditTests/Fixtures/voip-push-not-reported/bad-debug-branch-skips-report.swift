// swift-format-ignore-file
import CallKit
import PushKit

/// A debug build, which runs on devices too, only logs the push: built that way, the app never reports the call.
final class CallPushDelegate: NSObject, PKPushRegistryDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) { // expect: voip-push-not-reported
        #if DEBUG
        print("push received")
        #else
        provider.reportNewIncomingCall(with: UUID(), update: CXCallUpdate()) { _ in }
        #endif
        completion()
    }
}
