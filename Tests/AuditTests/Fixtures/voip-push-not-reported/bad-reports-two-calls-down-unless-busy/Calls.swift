// swift-format-ignore-file
import Foundation

/// A second push while a call rings is dropped without a report: iOS ends the app for it.
final class Calls {
    static var current = Calls()
    private let provider = CallProvider()
    private(set) var ringing: UUID?

    func ring(room: String, from caller: String, done: @escaping () -> Void) {
        guard ringing == nil else {
            done()
            return // expect: voip-push-not-reported
        }
        let uuid = UUID()
        ringing = uuid
        provider.announce(uuid: uuid, caller: caller) { _ in done() }
    }
}
