// swift-format-ignore-file
import CallKit

/// The one place that talks to CallKit.
final class CallProvider {
    private let provider = CXProvider(configuration: CXProviderConfiguration())

    func announce(uuid: UUID, caller: String, whenShown: @escaping (Error?) -> Void) {
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: caller)
        provider.reportNewIncomingCall(with: uuid, update: update, completion: whenShown)
    }
}
