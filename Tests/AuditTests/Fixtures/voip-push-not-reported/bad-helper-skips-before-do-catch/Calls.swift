// swift-format-ignore-file
import CallKit

final class Calls {
    private let provider = CXProvider(configuration: CXProviderConfiguration())
    var providerUp = true

    func report(caller: String) {
        guard providerUp else { return } // expect: voip-push-not-reported
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: caller)
        provider.reportNewIncomingCall(with: UUID(), update: update) { _ in }
    }
}
