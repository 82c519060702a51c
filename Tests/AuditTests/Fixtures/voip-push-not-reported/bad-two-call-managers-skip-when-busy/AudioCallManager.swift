// swift-format-ignore-file
import CallKit

final class AudioCallManager: IncomingCallDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())
    var current: UUID?

    func incomingCall(_ id: UUID, from caller: String) {
        if current != nil {
            print("skipping \(id): already on a call")
            return // expect: voip-push-not-reported
        }
        current = id
        let update = CXCallUpdate()
        update.localizedCallerName = caller
        provider.reportNewIncomingCall(with: id, update: update) { _ in }
    }
}
