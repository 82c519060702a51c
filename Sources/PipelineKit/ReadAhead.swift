import Domain

/// What the retrains of a claimed batch will read, by user, read ahead of them (`PersonalModels.prepareRetrains(of:)`):
/// a retrain takes its user's at once when it is read, and otherwise waits for it.
///
/// One reader reads a batch's users a part after another and hands each part over as it is read, so that a worker
/// hops to the reader's thread once a batch rather than once a part; a retrain that finds its input read does
/// not wait at all.
final class ReadAhead<Input: Sendable>: Sendable {
    private enum Slot {
        /// Being read; the retrains waiting for it.
        case reading([CheckedContinuation<Input?, Never>])
        /// Read: `nil` when it could not be, and its retrain reads for itself.
        case read(Input?)
    }

    private let slots = Locked<[UserID: Slot]>([:])

    /// Marks `users` as being read. What was read for them before and never taken is dropped.
    func expect(_ users: [UserID]) {
        let waiting = slots.withLock { slots in
            users.flatMap { user -> [CheckedContinuation<Input?, Never>] in
                defer { slots[user] = .reading([]) }
                guard case .reading(let waiting)? = slots[user] else { return [] }
                return waiting
            }
        }
        for retrain in waiting { retrain.resume(returning: nil) }
    }

    /// Hands over what was read for `users` that are being read: `inputs[user]`, `nil` for a user left out. A
    /// user read already, or not expected, is left as it is.
    func publish(_ inputs: [UserID: Input], for users: some Sequence<UserID>) {
        let resumed = slots.withLock { slots in
            users.flatMap { user -> [(CheckedContinuation<Input?, Never>, Input?)] in
                guard case .reading(let waiting)? = slots[user] else { return [] }
                // A retrain waiting takes it now; otherwise it is kept for the retrain to come.
                slots[user] = waiting.isEmpty ? .read(inputs[user]) : nil
                return waiting.map { ($0, inputs[user]) }
            }
        }
        for (retrain, input) in resumed { retrain.resume(returning: input) }
    }

    /// Takes `user`'s input: at once when it is read, once it is when it is being read; `nil` when it was not
    /// read ahead, or could not be.
    func take(_ user: UserID) async -> Input? {
        if let found = take(user, orQueue: nil) { return found }
        return await withCheckedContinuation { retrain in
            if let found = take(user, orQueue: retrain) { retrain.resume(returning: found) }
        }
    }

    /// `user`'s input, taken, when it is read (`nil` inside when it could not be, or was never expected); `nil`
    /// while it is being read, after queueing `retrain` (when given) for it.
    private func take(_ user: UserID, orQueue retrain: CheckedContinuation<Input?, Never>?) -> Input?? {
        slots.withLock { slots in
            switch slots[user] {
            case nil: return .some(nil)
            case .read(let input)?:
                slots[user] = nil
                return .some(input)
            case .reading(let waiting)?:
                if let retrain { slots[user] = .reading(waiting + [retrain]) }
                return nil
            }
        }
    }

    /// Drops everything read ahead; a retrain waiting is told nothing was read.
    func removeAll() {
        let waiting = slots.withLock { slots in
            defer { slots.removeAll() }
            return slots.values.flatMap { slot -> [CheckedContinuation<Input?, Never>] in
                guard case .reading(let waiting) = slot else { return [] }
                return waiting
            }
        }
        for retrain in waiting { retrain.resume(returning: nil) }
    }
}
