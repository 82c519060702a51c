public import Domain

/// The name a task is registered and submitted under, like an entry of iOS's
/// `BGTaskSchedulerPermittedIdentifiers`: `health-refresh`, `com.example.cleanup`.
public struct TaskIdentifier: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    /// `nil` unless `rawValue` is 1–128 characters of letters, digits, `.`, `_` and `-`.
    public init?(_ rawValue: String) {
        guard TaskIdentifier.isValid(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// An identifier written in code; traps when it is not valid, because it is a programmer's value.
    public init(stringLiteral value: String) {
        guard TaskIdentifier.isValid(value) else { preconditionFailure("invalid task identifier '\(value)'") }
        rawValue = value
    }

    static func isValid(_ text: String) -> Bool {
        (1...128).contains(text.utf8.count)
            && text.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || ".-_".unicodeScalars.contains(scalar))
            }
    }

    public var description: String { rawValue }

    public static func < (lhs: TaskIdentifier, rhs: TaskIdentifier) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

/// Whom a request works for: one user, or nobody in particular. Requests are unique per identifier
/// and scope, so every user has their own chain of each per-user task.
public enum TaskScope: Hashable, Comparable, Sendable, CustomStringConvertible {
    case global
    case user(UserID)

    /// The user, for a user scope.
    public var user: UserID? {
        if case .user(let id) = self { id } else { nil }
    }

    /// `global`, or the user id.
    public var description: String {
        switch self {
        case .global: "global"
        case .user(let id): id.rawValue
        }
    }

    /// How the database spells the scope: the user id, or the empty string.
    var storageKey: String { user?.rawValue ?? "" }

    init?(storageKey: String) {
        if storageKey.isEmpty {
            self = .global
        } else if let id = UserID(storageKey) {
            self = .user(id)
        } else {
            return nil
        }
    }

    public static func < (lhs: TaskScope, rhs: TaskScope) -> Bool {
        lhs.storageKey < rhs.storageKey
    }
}

/// Which scopes a registered task's chain covers: each launch starts the chain (submits the first
/// request with `.keep`) for every one of them.
public enum ChainScope: Sendable, Hashable {
    /// One chain for the whole database.
    case global
    /// One chain per user in the database.
    case everyUser
}
