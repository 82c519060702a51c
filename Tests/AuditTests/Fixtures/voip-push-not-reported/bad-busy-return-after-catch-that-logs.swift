// swift-format-ignore-file
import CallKit
import Foundation
import PushKit

struct Caller: Decodable {
    var name: String
}

final class CallCenter: NSObject, PKPushRegistryDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())
    var activeCalls = 0

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    // The `do` only reads the caller's name; its `catch` logs and goes on, like the body, to the busy test, whose
    // `return` is the one path that leaves unreported.
    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        var name = "Unknown"
        do {
            let data = try JSONSerialization.data(withJSONObject: payload.dictionaryPayload)
            if let caller = try? JSONDecoder().decode(Caller.self, from: data) {
                name = caller.name
            }
        } catch {
            print("unreadable payload")
        }
        if activeCalls > 0 {
            print("busy: \(name)")
            completion()
            return // expect: voip-push-not-reported
        }
        let update = CXCallUpdate()
        update.localizedCallerName = name
        provider.reportNewIncomingCall(with: UUID(), update: update) { _ in completion() }
    }
}
