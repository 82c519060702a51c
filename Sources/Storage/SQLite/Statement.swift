import CSQLite

/// A prepared statement. It owns its `sqlite3_stmt` and finalizes it when released.
///
/// Not thread-safe: a statement lives inside the `Store` actor with its connection.
final class Statement: RowReader {
    let handle: OpaquePointer
    let sql: String
    private let connection: OpaquePointer

    init(connection: OpaquePointer, sql: String) throws(StorageError) {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK, let handle else {
            throw StorageError.sqlite(
                code: sqlite3_extended_errcode(connection), message: String(cString: sqlite3_errmsg(connection)),
                sql: sql)
        }
        self.handle = handle
        self.sql = sql
        let count = sqlite3_bind_parameter_count(handle)
        textRoom = .allocate(byteCount: max(1024, 16 * Int(count)), alignment: 1)
        self.connection = connection
        var indexes: [Int32] = []
        for index in Int32(1)..<count + 1 {
            let number = sqlite3_bind_parameter_name(handle, index).flatMap { Int(String(cString: $0).dropFirst()) }
            let position = number ?? Int(index)
            if indexes.count <= position { indexes += repeatElement(0, count: position + 1 - indexes.count) }
            indexes[position] = index
        }
        self.indexes = indexes
    }

    /// SQLite's index of the parameter numbered `n` (`$n` or `?n`) at `[n]`, 0 where the statement has none.
    /// SQLite numbers named parameters such as `$2` in the order they first appear, so a statement whose text
    /// names `$2` before `$1` binds `$1` at index 2; `bind(_: [any SQLBindable])` binds each by its number.
    private let indexes: [Int32]

    /// Room for the text a run binds: `bind(_:_: String?)` copies a string here and binds it `SQLITE_STATIC`, so a
    /// bound string costs SQLite no allocation and copy of its own (an ingestion binds seven per day). SQLite
    /// reads the bytes until `reset()` clears the bindings, which also frees the room for the next run. Text that
    /// does not fit is bound `SQLITE_TRANSIENT`, which SQLite copies. 1 KB, or 16 bytes a parameter for a
    /// statement with more (several rows' values).
    private let textRoom: UnsafeMutableRawBufferPointer
    private var textUsed = 0

    deinit {
        sqlite3_finalize(handle)
        textRoom.deallocate()
    }

    /// Ends the previous run and clears its bindings, so no value of one run can leak into the next.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        textUsed = 0
    }

    // MARK: Binding (1-based indexes, as SQLite numbers `?NNN` parameters)

    func bind(_ index: Int32, _ value: Int64?) throws(StorageError) {
        let code = value.map { sqlite3_bind_int64(handle, index, $0) } ?? sqlite3_bind_null(handle, index)
        try check(code)
    }

    func bind(_ index: Int32, _ value: Int?) throws(StorageError) {
        try bind(index, value.map(Int64.init))
    }

    func bind(_ index: Int32, _ value: Double?) throws(StorageError) {
        let code = value.map { sqlite3_bind_double(handle, index, $0) } ?? sqlite3_bind_null(handle, index)
        try check(code)
    }

    func bind(_ index: Int32, _ value: Bool) throws(StorageError) {
        try check(sqlite3_bind_int64(handle, index, value ? 1 : 0))
    }

    func bind(_ index: Int32, _ value: String?) throws(StorageError) {
        // `withUTF8` reads a native string's storage in place, without the copy `utf8CString` would make.
        guard var text = value else { return try check(sqlite3_bind_null(handle, index)) }
        let code = text.withUTF8 { buffer in
            if let bytes = buffer.baseAddress, buffer.count <= textRoom.count - textUsed {
                // SQLITE_STATIC (a nil destructor): the copy in `textRoom` lives until `reset()`.
                let copy = textRoom.baseAddress! + textUsed
                copy.copyMemory(from: bytes, byteCount: buffer.count)
                textUsed += buffer.count
                return sqlite3_bind_text(
                    handle, index, copy.assumingMemoryBound(to: CChar.self), Int32(buffer.count), nil)
            }
            // SQLITE_TRANSIENT: SQLite copies the bytes before the buffer goes away. An empty buffer may have no
            // address, and a NULL pointer would bind SQL NULL, not ''.
            let bytes = UnsafeRawPointer(buffer.baseAddress ?? emptyText.utf8Start)
            return sqlite3_bind_text(
                handle, index, bytes.assumingMemoryBound(to: CChar.self), Int32(buffer.count), sqliteTransient)
        }
        try check(code)
    }

    /// Binds text that lives as long as the program (a `StaticString`): SQLite reads it in place, with no copy.
    func bind(_ index: Int32, _ value: StaticString?) throws(StorageError) {
        guard let value else { return try check(sqlite3_bind_null(handle, index)) }
        precondition(value.hasPointerRepresentation, "text, not a single scalar")
        let bytes = UnsafeRawPointer(value.utf8Start).assumingMemoryBound(to: CChar.self)
        try check(sqlite3_bind_text(handle, index, bytes, Int32(value.utf8CodeUnitCount), nil))
    }

    /// Binds `parameters` to `$1, $2, …`: the first to the parameter numbered 1, and so on. A number the
    /// statement does not use is skipped.
    func bind(_ parameters: [any SQLBindable]) throws(StorageError) {
        for (offset, parameter) in parameters.enumerated() where offset + 1 < indexes.count {
            let index = indexes[offset + 1]
            guard index > 0 else { continue }
            switch parameter.sqlValue {
            case .null: try check(sqlite3_bind_null(handle, index))
            case .integer(let number): try bind(index, number)
            case .real(let number): try bind(index, number)
            case .text(let text): try bind(index, text)
            case .boolean(let flag): try bind(index, flag)
            case let list: try bind(index, list.json)
            }
        }
    }

    // MARK: Stepping

    /// Runs one step; `true` when a row is available.
    func step() throws(StorageError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw error()
        }
    }

    /// Runs the statement to completion, discarding rows.
    func run() throws(StorageError) {
        while try step() {}
    }

    // MARK: Reading columns (0-based indexes, as `sqlite3_column_*` numbers them)

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    /// The column's integer, `nil` for NULL. SQLite reads NULL as 0, so only a 0 takes a second call to tell the
    /// two apart: a stored value costs one call into SQLite, not two (a retrain reads millions).
    func optionalInt(_ column: Int32) -> Int? {
        let value = sqlite3_column_int64(handle, column)
        return value == 0 && isNull(column) ? nil : Int(value)
    }

    func double(_ column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    /// The column's number, `nil` for NULL; one call for a value that is not zero, as `optionalInt`.
    func optionalDouble(_ column: Int32) -> Double? {
        let value = sqlite3_column_double(handle, column)
        return value == 0 && isNull(column) ? nil : value
    }

    func string(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The first byte of the column's text, 0 for empty text or NULL: one call instead of the two that reading
    /// its length too takes (SQLite's text ends with a 0 byte).
    func firstByte(_ column: Int32) -> UInt8 {
        sqlite3_column_text(handle, column)?.pointee ?? 0
    }

    /// Calls `body` with the column's UTF-8 bytes without copying them; valid only inside `body`.
    func withBytes<R>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let text = sqlite3_column_text(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        return body(UnsafeBufferPointer(start: text, count: text == nil ? 0 : count))
    }

    func bool(_ column: Int32) -> Bool {
        sqlite3_column_int64(handle, column) != 0
    }

    private func check(_ code: Int32) throws(StorageError) {
        guard code == SQLITE_OK else { throw error() }
    }

    private func error() -> StorageError {
        .sqlite(
            code: sqlite3_extended_errcode(connection), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
    }
}

/// `SQLITE_TRANSIENT` is a macro casting -1 to a function pointer, which Swift does not import.
/// https://www.sqlite.org/c3ref/c_static.html
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A valid address for binding the empty string.
private let emptyText: StaticString = ""
