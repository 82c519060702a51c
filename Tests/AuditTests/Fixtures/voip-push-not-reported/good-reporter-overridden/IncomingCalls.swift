// swift-format-ignore-file
import CallKit

/// The reporter and its test double: which one a push reaches depends on what was injected.
class IncomingCalls {
    let provider = CXProvider(configuration: CXProviderConfiguration())

    func show(caller: String, completion: @escaping (Error?) -> Void) {
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: caller)
        provider.reportNewIncomingCall(with: UUID(), update: update, completion: completion)
    }
}

final class RecordingIncomingCalls: IncomingCalls {
    var shown: [String] = []

    override func show(caller: String, completion: @escaping (Error?) -> Void) {
        shown.append(caller)
        completion(nil)
    }
}
