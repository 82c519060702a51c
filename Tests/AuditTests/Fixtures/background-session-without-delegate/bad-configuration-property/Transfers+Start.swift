// swift-format-ignore-file
import Foundation

extension Transfers {
    func start() {
        session = URLSession(configuration: self.configuration) // expect: background-session-without-delegate
    }
}
