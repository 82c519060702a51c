// swift-format-ignore-file
import CallKit

/// Stands in for the controller in previews; it reports every call.
final class PreviewCalls {
    private let provider = CXProvider(configuration: CXProviderConfiguration())

    func reportIncoming(id: String, completion: @escaping () -> Void) {
        provider.reportNewIncomingCall(with: UUID(), update: CXCallUpdate()) { _ in completion() }
    }
}
