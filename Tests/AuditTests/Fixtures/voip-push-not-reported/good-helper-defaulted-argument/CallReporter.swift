// swift-format-ignore-file
import CallKit

final class CallReporter {
    private let provider = CXProvider(configuration: CXProviderConfiguration())

    func reportIncoming(from caller: String, video: Bool = false, completion: @escaping () -> Void) {
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: caller)
        update.hasVideo = video
        provider.reportNewIncomingCall(with: UUID(), update: update) { _ in completion() }
    }
}
