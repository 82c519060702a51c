// swift-format-ignore-file
import Foundation

protocol IncomingCallDelegate: AnyObject {
    func incomingCall(_ id: UUID, from caller: String)
}
