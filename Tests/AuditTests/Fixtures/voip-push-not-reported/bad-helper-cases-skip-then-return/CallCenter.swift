// swift-format-ignore-file
import CallKit
import PushKit

/// Only a ringing push reports a call. The others end the call an earlier push reported and fall out of the
/// `switch` to the `return nil` below it: each such case leaves its push unreported, and iOS ends the app for it.
final class CallCenter {
    static let shared = CallCenter()
    private(set) var provider: CXProvider?
    private var current: UUID?

    func handle(push payload: PKPushPayload) -> CXProvider? {
        guard let action = payload.dictionaryPayload["action"] as? String else { return nil } // expect: voip-push-not-reported
        switch action {
        case "ring":
            return ring(caller: payload.dictionaryPayload["caller"] as? String ?? "Unknown")
        case "cancelled": // expect: voip-push-not-reported
            if let current { provider?.reportCall(with: current, endedAt: Date(), reason: .remoteEnded) }
        case "answered-elsewhere": // expect: voip-push-not-reported
            if let current { provider?.reportCall(with: current, endedAt: Date(), reason: .answeredElsewhere) }
        default: // expect: voip-push-not-reported
            print("push ignored")
        }
        return nil
    }

    private func ring(caller: String) -> CXProvider {
        let provider = CXProvider(configuration: CXProviderConfiguration())
        let uuid = UUID()
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: caller)
        provider.reportNewIncomingCall(with: uuid, update: update) { _ in }
        self.provider = provider
        current = uuid
        return provider
    }
}
