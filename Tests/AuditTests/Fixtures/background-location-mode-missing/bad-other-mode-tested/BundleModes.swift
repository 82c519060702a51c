// swift-format-ignore-file
import Foundation

extension Bundle {
    /// The background modes the host app declares.
    var declaredModes: Set<String> {
        Set(object(forInfoDictionaryKey: "UIBackgroundModes") as? [String] ?? [])
    }
}
