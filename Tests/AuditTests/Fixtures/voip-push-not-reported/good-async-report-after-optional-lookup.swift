// swift-format-ignore-file
import CallKit
import PushKit

enum Directory {
    static func caller(for handle: String) async throws -> String { handle }
}

final class CallCenter: NSObject, PKPushRegistryDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    // `try?` throws nothing: the report is the first call that can, so the catch only sees a declined call.
    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType
    ) async {
        let update = CXCallUpdate()
        let handle = payload.dictionaryPayload["handle"] as? String ?? ""
        do {
            update.localizedCallerName = try? await Directory.caller(for: handle)
            try await provider.reportNewIncomingCall(with: UUID(), update: update)
        } catch {
            print("the system declined the call: \(error)")
        }
    }
}
