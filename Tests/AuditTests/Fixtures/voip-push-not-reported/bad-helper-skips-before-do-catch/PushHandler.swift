// swift-format-ignore-file
import PushKit

/// The push is reported through `Calls.report(caller:)`, which skips the report while the provider is down; the
/// `catch` after it only logs a failed state change and is no place of its own where the push goes unreported.
final class PushHandler: NSObject, PKPushRegistryDelegate {
    let calls = Calls()
    let machine = StateMachine()

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        let caller = payload.dictionaryPayload["caller"] as? String ?? "Unknown"
        calls.report(caller: caller)
        do {
            try machine.enter("incoming")
        } catch {
            print("state change failed")
        }
        completion()
    }
}

final class StateMachine {
    func enter(_ state: String) throws {}
}
