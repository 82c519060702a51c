// swift-format-ignore-file
import CallKit
import PushKit
import os

final class CallCenter: NSObject, PKPushRegistryDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())
    let log = Logger(subsystem: "com.example.calls", category: "push")

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    // The report is the first thing that may throw: its error (the system declined the call, a blocked number)
    // comes after the report was made, so the catch owes nothing more.
    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType
    ) async {
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: payload.dictionaryPayload["handle"] as? String ?? "")
        do {
            try await provider.reportNewIncomingCall(with: UUID(), update: update)
            log.info("incoming call shown")
        } catch {
            log.error("the system declined the call: \(error.localizedDescription)")
        }
    }
}
