// swift-format-ignore-file
import CallKit
import PushKit

// Two ways out without a report: a second push while a call is tracked skips the `if`, and a payload that does not
// decode lands in the `catch`, which only logs.
final class CallPushes: NSObject, PKPushRegistryDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())
    var current: UUID?

    func pushRegistry(_ registry: PKPushRegistry, didUpdate credentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        do {
            let call = try IncomingCall(payload.dictionaryPayload)
            if current == nil { // expect: voip-push-not-reported
                let uuid = UUID()
                current = uuid
                provider.reportNewIncomingCall(with: uuid, update: call.update) { _ in completion() }
            }
        } catch { // expect: voip-push-not-reported
            print("undecodable push: \(error)")
            completion()
        }
    }
}
