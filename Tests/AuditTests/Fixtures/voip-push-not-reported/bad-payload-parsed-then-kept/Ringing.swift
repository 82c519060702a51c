// swift-format-ignore-file
import CallKit
import Foundation

/// What the push carries, read out of its payload by the app's own initializer.
struct IncomingInvite {
    let callID: String
    let caller: String

    init(fields: [AnyHashable: Any]) {
        self.callID = fields["call-id"] as? String ?? ""
        self.caller = fields["caller"] as? String ?? "Unknown"
    }
}

/// Keeps the invite and reports the call only once the signalling connection says it rings: too late for PushKit.
final class Ringing {
    static let shared = Ringing()
    private let provider = CXProvider(configuration: CXProviderConfiguration())
    private var invite: IncomingInvite?

    func expect(_ invite: IncomingInvite) {
        self.invite = invite
    }

    func signallingDidRing() {
        guard let invite else { return }
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: invite.caller)
        provider.reportNewIncomingCall(with: UUID(uuidString: invite.callID) ?? UUID(), update: update) { _ in }
    }
}
