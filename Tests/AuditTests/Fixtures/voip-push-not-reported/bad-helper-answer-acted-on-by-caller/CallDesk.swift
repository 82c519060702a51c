// swift-format-ignore-file
import CallKit

/// Shows a call unless do-not-disturb is on, and says whether it did: the caller decides what a push that shows
/// nothing does, and here it reports nothing, so iOS ends the app. The caller reads the answer, so its `return` is
/// reported, and so is the skip it answers for.
final class CallDesk {
    static let shared = CallDesk()
    private let provider = CXProvider(configuration: CXProviderConfiguration())
    var doNotDisturb = false

    func showCall(from caller: String, completion: @escaping () -> Void) -> Bool {
        guard !doNotDisturb else { return false } // expect: voip-push-not-reported
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: caller)
        provider.reportNewIncomingCall(with: UUID(), update: update) { _ in completion() }
        return true
    }
}
