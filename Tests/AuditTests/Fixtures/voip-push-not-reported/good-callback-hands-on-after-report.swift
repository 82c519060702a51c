// swift-format-ignore-file
import CallKit
import PushKit

struct IncomingCall {
    let id: UUID
    let caller: String
}

final class IncomingCalls: NSObject, PKPushRegistryDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())
    var active: [UUID: IncomingCall] = [:]
    var onCall = false

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        guard let payload = parse(payload) else {
            let id = UUID()
            provider.reportNewIncomingCall(with: id, update: CXCallUpdate()) { _ in
                self.provider.reportCall(with: id, endedAt: nil, reason: .failed)
                completion()
            }
            return
        }
        provider.reportNewIncomingCall(with: payload.id, update: makeUpdate(from: payload)) { error in
            if error != nil {
                print("CallKit refused the call")
                return
            }
            // The call is reported: what follows only keeps its details, or ends it when busy.
            self.remember(payload)
            completion()
        }
    }

    func parse(_ payload: PKPushPayload) -> IncomingCall? {
        guard let caller = payload.dictionaryPayload["caller"] as? String else { return nil }
        return IncomingCall(id: UUID(), caller: caller)
    }

    func makeUpdate(from payload: IncomingCall) -> CXCallUpdate {
        let update = CXCallUpdate()
        update.localizedCallerName = payload.caller
        return update
    }

    func remember(_ payload: IncomingCall) {
        if onCall {
            provider.reportCall(with: payload.id, endedAt: nil, reason: .unanswered)
            return
        }
        active[payload.id] = payload
    }
}
