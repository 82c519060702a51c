// swift-format-ignore-file
import CallKit
import Combine

final class CallEngine {
    private let provider = CXProvider(configuration: CXProviderConfiguration())
    private var cancellables: Set<AnyCancellable> = []

    init(pushService: PushService) {
        pushService.incomingCalls
            .receive(on: DispatchQueue.main)
            .sink { [provider] call in
                let update = CXCallUpdate()
                update.remoteHandle = CXHandle(type: .generic, value: call.caller)
                provider.reportNewIncomingCall(with: call.id, update: update) { _ in }
            }
            .store(in: &cancellables)
    }
}
