// swift-format-ignore-file
import PushKit

/// Every VoIP push goes to the Flutter CallKit plugin marked as coming from PushKit, which reports it to CallKit
/// before returning (the plugin's source is not in the app's tree).
final class PushHandler: NSObject, PKPushRegistryDelegate {
    func pushRegistry(_ registry: PKPushRegistry, didUpdate credentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        guard type == .voIP else { return }
        let id = payload.dictionaryPayload["id"] as? String ?? ""
        let caller = payload.dictionaryPayload["callerName"] as? String ?? ""
        let data = CallKeepData(id: id, callerName: caller, handle: caller, hasVideo: true)
        CallKeepPlugin.sharedInstance?.displayIncomingCall(data, fromPushKit: true)
    }
}
