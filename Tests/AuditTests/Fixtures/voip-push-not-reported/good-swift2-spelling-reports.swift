// swift-format-ignore-file
import CallKit
import PushKit
import UIKit

/// The Swift 2 spelling of the callback, reporting the call on every path.
class PushListener: NSObject, PKPushRegistryDelegate {
    let provider = CXProvider(configuration: CXProviderConfiguration(localizedName: "Calls"))

    func pushRegistry(registry: PKPushRegistry!, didUpdatePushCredentials credentials: PKPushCredentials!, forType type: String!) {
        NSLog("token \(credentials.token)")
    }

    func pushRegistry(registry: PKPushRegistry!, didReceiveIncomingPushWithPayload payload: PKPushPayload!, forType type: String!) {
        let caller = payload.dictionaryPayload["caller"] as? String ?? "Unknown"
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .Generic, value: caller)
        provider.reportNewIncomingCallWithUUID(NSUUID(), update: update) { error in
            NSLog("reported \(error)")
        }
    }
}
