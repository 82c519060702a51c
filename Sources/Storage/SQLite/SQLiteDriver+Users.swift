import Domain
import Foundation

extension SQLiteDriver {
    /// Creates the user or changes their time zone. Runs in its own transaction.
    func save(_ user: User) throws(StorageError) {
        try write { () throws(StorageError) in try upsert(user) }
    }

    func apply(_ update: UserUpdate) throws(StorageError) {
        guard let timeZone = update.timeZone else {
            try ensureUser(update.id)
            return
        }
        try upsert(User(id: update.id, timeZone: timeZone))
    }

    func upsert(_ user: User) throws(StorageError) {
        try connection.withStatement(
            """
            INSERT INTO users (id, time_zone, created_at) VALUES (?1, ?2, ?3)
            ON CONFLICT (id) DO UPDATE SET time_zone = excluded.time_zone
            """
        ) { (statement) throws(StorageError) in
            try statement.bind(1, user.id.rawValue)
            try statement.bind(2, user.timeZone.ianaName)
            try statement.bind(3, nowMilliseconds)
            try statement.run()
        }
        knownUsers.insert(user.id)
    }

    /// Makes sure a row exists for `id`, with the default time zone (UTC) if it is new.
    func ensureUser(_ id: UserID) throws(StorageError) {
        guard !knownUsers.contains(id) else { return }
        try connection.withStatement(
            "INSERT INTO users (id, time_zone, created_at) VALUES (?1, 'UTC', ?2) ON CONFLICT (id) DO NOTHING"
        ) { (statement) throws(StorageError) in
            try statement.bind(1, id.rawValue)
            try statement.bind(2, nowMilliseconds)
            try statement.run()
        }
        knownUsers.insert(id)
    }

    /// `ensureUser` for each user of a run of rows, skipping repeats of the one before (rows come by user).
    func ensureUsers(_ users: some Sequence<UserID>) throws(StorageError) {
        var ensured: UserID?
        for user in users where user != ensured {
            try ensureUser(user)
            ensured = user
        }
    }

    /// The user with this id, or `nil`.
    func user(_ id: UserID) throws(StorageError) -> User? {
        try connection.withStatement("SELECT id, time_zone FROM users WHERE id = ?1") {
            (statement) throws(StorageError) in
            try statement.bind(1, id.rawValue)
            return try statement.step() ? try decodeUser(statement) : nil
        }
    }

    /// Every user, ordered by id.
    func users() throws(StorageError) -> [User] {
        try connection.withStatement("SELECT id, time_zone FROM users ORDER BY id") {
            (statement) throws(StorageError) in
            var users: [User] = []
            while try statement.step() {
                if let user = try decodeUser(statement) { users.append(user) }
            }
            return users
        }
    }

    /// Every user's id, ordered: counted first, so the array is allocated once at its size (100,000 ids grown by
    /// doubling touched half as much memory again).
    func userIDs() throws(StorageError) -> [UserID] {
        var ids: [UserID] = []
        ids.reserveCapacity(try connection.scalarInt("SELECT count(*) FROM users"))
        try connection.withStatement("SELECT id FROM users ORDER BY id") { (statement) throws(StorageError) in
            while try statement.step() {
                if let id = UserID(statement.string(0)) { ids.append(id) }
            }
        }
        return ids
    }

    func timeZoneNames() throws(StorageError) -> [UserID: String] {
        try connection.withStatement("SELECT id, time_zone FROM users") { (statement) throws(StorageError) in
            var names: [UserID: String] = [:]
            while try statement.step() {
                if let id = UserID(statement.string(0)) { names[id] = statement.string(1) }
            }
            return names
        }
    }

    /// The user in a row's first two columns (`id`, `time_zone`).
    func decodeUser(_ statement: Statement) throws(StorageError) -> User? {
        try User.stored(id: statement.string(0), timeZone: statement.string(1))
    }
}
