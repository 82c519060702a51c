// swift-format-ignore-file
import CallKit
import PushKit

final class PushRouter: NSObject, PKPushRegistryDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration())

    func pushRegistry(_ registry: PKPushRegistry, didUpdate pushCredentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        switch type {
        case .voIP:
            let update = CXCallUpdate()
            update.localizedCallerName = payload.dictionaryPayload["caller"] as? String
            provider.reportNewIncomingCall(with: UUID(), update: update) { _ in completion() }
        default:
            // File-provider and complication pushes owe CallKit nothing.
            print("ignored push of type \(type.rawValue)")
        }
    }
}
