// swift-format-ignore-file
import CallKit

final class CallController {
    private let provider = CXProvider(configuration: CXProviderConfiguration())
    private var shown: Set<String> = []

    func reportIncoming(id: String, completion: @escaping () -> Void) {
        if shown.contains(id) {
            completion()
            return // expect: voip-push-not-reported
        }
        shown.insert(id)
        provider.reportNewIncomingCall(with: UUID(), update: CXCallUpdate()) { _ in completion() }
    }

    func endCall(id: String) {
        shown.remove(id)
    }
}
