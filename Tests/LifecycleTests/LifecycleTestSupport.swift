import Foundation
import Lifecycle

/// The virtual clock turns exact virtual time into a `Date` (a Double of seconds since 2001); for
/// instants in this century a microsecond is far above that conversion's rounding.
let dateTolerance: TimeInterval = 1e-6

/// One transition of a state log, comparable in `#expect`.
struct Step: Equatable, CustomStringConvertible {
    let from: AppState
    let to: AppState
    let cause: TransitionCause

    init(_ from: AppState, _ to: AppState, _ cause: TransitionCause) {
        self.from = from
        self.to = to
        self.cause = cause
    }

    var description: String { "\(from) → \(to) (\(cause.name))" }
}

extension Array where Element == LifecycleEvent {
    /// The transitions, in order.
    var steps: [Step] {
        compactMap { event in event.transition.map { Step($0.from, $0.to, $0.cause) } }
    }

    /// The offset of the first event matching `predicate`.
    func offset(of predicate: (LifecycleEvent.Kind) -> Bool) -> Duration? {
        first { predicate($0.kind) }?.offset
    }

    func contains(_ kind: LifecycleEvent.Kind) -> Bool {
        contains { $0.kind == kind }
    }
}
