// swift-format-ignore-file
import PushKit

/// Only the "start" branch hands the push to the call controller (a property typed `CallController`, so the call is
/// that type's method, not `PreviewCalls`'s of the same name): the "end" branch and the `else` complete the push
/// without reporting a call, and the controller itself skips the report for a call it already shows.
final class PushHandler: NSObject, PKPushRegistryDelegate {
    let calls: CallController

    init(calls: CallController) {
        self.calls = calls
        super.init()
    }

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        let kind = payload.dictionaryPayload["kind"] as? String
        let id = payload.dictionaryPayload["id"] as? String ?? ""
        if kind == "end" { // expect: voip-push-not-reported
            self.calls.endCall(id: id)
            completion()
        } else if kind == "start" {
            self.calls.reportIncoming(id: id, completion: completion)
        } else { // expect: voip-push-not-reported
            completion()
        }
    }
}
