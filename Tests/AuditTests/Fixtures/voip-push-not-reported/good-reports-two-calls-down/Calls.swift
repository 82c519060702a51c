// swift-format-ignore-file
import Foundation

/// Keeps the call being rung and shows it through the provider: the push handler reaches CallKit two calls down.
final class Calls {
    static var current = Calls()
    private let provider = CallProvider()
    private(set) var ringing: UUID?

    func ring(room: String, from caller: String, done: @escaping () -> Void) {
        let uuid = UUID()
        ringing = uuid
        provider.announce(uuid: uuid, caller: caller) { _ in done() }
    }
}
