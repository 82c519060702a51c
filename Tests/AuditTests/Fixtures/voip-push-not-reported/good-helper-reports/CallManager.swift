// swift-format-ignore-file
import CallKit

final class CallManager {
    static let shared = CallManager()
    private let provider = CXProvider(configuration: CXProviderConfiguration())

    func reportIncomingCall(uuid: UUID, handle: String, completion: @escaping () -> Void) {
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .phoneNumber, value: handle)
        update.hasVideo = false
        provider.reportNewIncomingCall(with: uuid, update: update) { _ in completion() }
    }
}
