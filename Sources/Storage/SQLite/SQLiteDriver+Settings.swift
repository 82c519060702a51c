import Domain

extension SQLiteDriver {
    /// The user's settings: what they set, over the registered defaults for every key they never
    /// set (DESIGN §8, bug 8). A user with no row at all reads as all defaults.
    func settings(for user: UserID) throws(StorageError) -> UserSettings {
        let stored = try connection.withStatement("SELECT key, value FROM user_settings WHERE user_id = ?1") {
            (statement) throws(StorageError) in
            try statement.bind(1, user.rawValue)
            var stored: [SettingKey: SettingValue] = [:]
            while try statement.step() {
                guard let key = SettingKey(rawValue: statement.string(0)) else { continue }
                switch statement.string(1) {
                case "true": stored[key] = .bool(true)
                case "false": stored[key] = .bool(false)
                case let text: if let number = Int(text) { stored[key] = .integer(number) }
                }
            }
            return stored
        }
        return UserSettings(stored: stored)
    }

    func apply(_ update: SettingsUpdate) throws(StorageError) {
        try ensureUser(update.user)
        for (key, change) in update.changes.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            if let value = change {
                try connection.withStatement(
                    """
                    INSERT INTO user_settings (user_id, key, value, updated_at) VALUES (?1, ?2, ?3, ?4)
                    ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
                    """
                ) { (statement) throws(StorageError) in
                    try statement.bind(1, update.user.rawValue)
                    try statement.bind(2, key.rawValue)
                    switch value {
                    case .bool(let flag): try statement.bind(3, flag ? "true" : "false")
                    case .integer(let number): try statement.bind(3, String(number))
                    }
                    try statement.bind(4, nowMilliseconds)
                    try statement.run()
                }
            } else {
                // Reset: the registered default applies again.
                try connection.withStatement("DELETE FROM user_settings WHERE user_id = ?1 AND key = ?2") {
                    (statement) throws(StorageError) in
                    try statement.bind(1, update.user.rawValue)
                    try statement.bind(2, key.rawValue)
                    try statement.run()
                }
            }
        }
    }
}
