/// A brace-delimited region of a source file and the construct that opened it.
///
/// Token positions are indices into `SourceFile.tokens`; `-1` means "none".
struct Scope: Sendable {
    enum Kind: UInt8, Sendable {
        /// The whole file; its code is top-level code.
        case file
        /// `class`, `struct`, `enum`, `extension`, `protocol` or `actor` body.
        case type
        /// `func`, `init`, `deinit` or `subscript` body.
        case function
        /// The body of a computed property (`var body: some View { … }`).
        case property
        /// `get`, `set`, `willSet` or `didSet` inside a property.
        case accessor
        /// A closure expression.
        case closure
        /// The body of `if`, `guard … else`, `for`, `while`, `switch`, `do`, `catch`, `defer`, `repeat`, `else`.
        case control
    }

    var kind: Kind
    var parent: Int32
    /// The `{`; `-1` for the file.
    var open: Int32
    /// The `}`; the token count when the brace is never closed.
    var close: Int32
    /// The declaration or statement keyword (`func`, `var`, `if` …); `-1` for closures and the file.
    var head: Int32 = -1
    /// The declared name (function, type, property); for a closure, the called function it is an argument of
    /// (`onAppear` in `.onAppear { … }`, `register` in `register(…) { task in … }`).
    var name: Int32 = -1
    /// For a closure passed with an argument label (`launchHandler: { … }`), the label.
    var label: Int32 = -1
    /// For a closure assigned with `=` (`task.expirationHandler = { … }`), the name it is assigned to.
    var assignee: Int32 = -1
    /// For `.control`, the statement keyword.
    var control: Word = .none

    /// Functions, initialisers and computed properties: code that runs when something calls it.
    var isCallable: Bool { kind == .function || kind == .property }
}
