// swift-format-ignore-file
import PushKit
import CallKit

/// The vendor's client takes its own pushes over (its answer, an invite id, is thrown away); any other VoIP push falls
/// through the `if` and is never reported.
final class AppDelegate: NSObject, PKPushRegistryDelegate {
    let client = VendorClient()

    func pushRegistry(_ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType, completion: @escaping () -> Void) {
        if client.isVendorPush(with: payload.dictionaryPayload) { // expect: voip-push-not-reported
            client.login()
            _ = client.processPushPayload(with: payload.dictionaryPayload, pushKitCompletion: completion)
        }
    }
}
