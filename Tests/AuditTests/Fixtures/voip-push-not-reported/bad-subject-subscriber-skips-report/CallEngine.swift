// swift-format-ignore-file
import CallKit
import Combine
import UIKit

final class CallEngine {
    private let provider = CXProvider(configuration: CXProviderConfiguration())
    private var cancellables: Set<AnyCancellable> = []
    var onRingingInApp: ((IncomingCall) -> Void)?

    init(pushService: PushService) {
        pushService.incomingCalls
            .sink { [weak self] call in
                guard let self else { return } // expect: voip-push-not-reported
                self.report(call)
            }
            .store(in: &cancellables)
    }

    private func report(_ call: IncomingCall) {
        if UIApplication.shared.applicationState == .active {
            onRingingInApp?(call)
            return // expect: voip-push-not-reported
        }
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: call.caller)
        provider.reportNewIncomingCall(with: call.id, update: update) { _ in }
    }
}
