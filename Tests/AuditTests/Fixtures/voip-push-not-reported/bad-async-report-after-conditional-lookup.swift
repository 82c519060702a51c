// swift-format-ignore-file
import CallKit
import PushKit

enum Directory {
    static func caller(for handle: String) async throws -> String { handle }
}

final class CallCenter: NSObject, PKPushRegistryDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())
    var looksUpCallers = true

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    // The lookup inside the `if` may throw before the report is made: its catch then reports nothing.
    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType
    ) async {
        let update = CXCallUpdate()
        let handle = payload.dictionaryPayload["handle"] as? String ?? ""
        do {
            if looksUpCallers {
                update.localizedCallerName = try await Directory.caller(for: handle)
            }
            try await provider.reportNewIncomingCall(with: UUID(), update: update)
        } catch { // expect: voip-push-not-reported
            print("VoIP push dropped: \(error)")
        }
    }
}
