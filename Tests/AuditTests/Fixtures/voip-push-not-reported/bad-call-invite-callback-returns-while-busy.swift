// swift-format-ignore-file
import CallKit
import PushKit
import TwilioVoice

/// The push goes to the calling SDK with this object as its delegate; the SDK calls back with the push's invite,
/// which is dropped unreported while another call is active.
final class VoiceCalls: NSObject, PKPushRegistryDelegate, NotificationDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())
    var activeCall: Call?
    var pushCompletion: (() -> Void)?

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        pushCompletion = completion
        TwilioVoiceSDK.handleNotification(payload.dictionaryPayload, delegate: self, delegateQueue: nil)
    }

    func callInviteReceived(callInvite: CallInvite) {
        if activeCall != nil {
            pushCompletion?()
            return // expect: voip-push-not-reported
        }
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: callInvite.from ?? "Unknown")
        provider.reportNewIncomingCall(with: callInvite.uuid, update: update) { _ in self.pushCompletion?() }
    }

    func cancelledCallInviteReceived(cancelledCallInvite: CancelledCallInvite, error: Error) {}
}
