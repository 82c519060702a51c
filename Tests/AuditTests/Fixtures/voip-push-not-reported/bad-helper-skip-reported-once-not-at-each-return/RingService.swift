// swift-format-ignore-file
import CallKit
import UIKit

/// Rings for a push. While the app is on screen the call shows in the app's own view, so CallKit is skipped — but
/// iOS still ends an app whose VoIP push reported no call.
final class RingService {
    static let shared = RingService()
    private let provider = CXProvider(configuration: CXProviderConfiguration())
    private var ringing: [String: UUID] = [:]

    func handle(push payload: [AnyHashable: Any], completion: @escaping () -> Void) {
        let room = payload["room"] as? String ?? ""
        if ringing[room] != nil {
            ringPlaceholder(named: "Duplicate", completion: completion)
            return
        }
        if payload["cancelled"] as? Bool == true {
            ringPlaceholder(named: "Cancelled", completion: completion)
            return
        }
        guard let caller = payload["caller"] as? String else {
            ringPlaceholder(named: "Unknown", completion: completion)
            return
        }
        let uuid = UUID()
        ringing[room] = uuid
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: caller)
        provider.reportNewIncomingCall(with: uuid, update: update) { _ in completion() }
    }

    /// A call reported and ended at once, for a push that starts no call.
    private func ringPlaceholder(named name: String, completion: @escaping () -> Void) {
        if UIApplication.shared.applicationState == .active {
            completion()
            return // expect: voip-push-not-reported
        }
        let uuid = UUID()
        let update = CXCallUpdate()
        update.localizedCallerName = name
        provider.reportNewIncomingCall(with: uuid, update: update) { [provider] _ in
            provider.reportCall(with: uuid, endedAt: Date(), reason: .remoteEnded)
            completion()
        }
    }
}
