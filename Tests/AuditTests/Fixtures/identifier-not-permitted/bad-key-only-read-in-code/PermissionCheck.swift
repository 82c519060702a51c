// swift-format-ignore-file
import Foundation

/// Reads the permitted identifiers at run time to warn in the log: it writes none of them.
enum PermissionCheck {
    static func warnIfMissing(_ identifier: String) {
        let permitted = Bundle.main.object(forInfoDictionaryKey: "BGTaskSchedulerPermittedIdentifiers") as? [String] ?? []
        if !permitted.contains(identifier) { print("\(identifier) is not permitted") }
    }
}
