// swift-format-ignore-file
import CallKit

final class CallManager {
    static let shared = CallManager()
    private let provider = CXProvider(configuration: CXProviderConfiguration())
    var blocked: Set<String> = []

    func reportIncomingCall(uuid: UUID, handle: String, completion: @escaping () -> Void) {
        // A blocked caller is dropped silently — but the push still had to be reported.
        guard !blocked.contains(handle) else { return completion() } // expect: voip-push-not-reported
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .phoneNumber, value: handle)
        provider.reportNewIncomingCall(with: uuid, update: update) { _ in completion() }
    }
}
