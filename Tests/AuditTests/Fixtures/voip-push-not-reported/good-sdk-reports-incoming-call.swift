// swift-format-ignore-file
import CallKit
import PushKit

/// A calling SDK's own `reportIncomingCall` reports the call to CallKit; its callback runs after the report.
final class CallingPushes: NSObject, PKPushRegistryDelegate {
    let callAgent = CallingSDK.CallAgent()

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        let info = CallingSDK.PushInfo(dictionary: payload.dictionaryPayload)
        CallingSDK.CallClient.reportIncomingCall(with: info, options: CallingSDK.CallKitOptions()) { error in
            if error == nil {
                self.callAgent.handlePush(info)
            }
            completion()
        }
    }
}
