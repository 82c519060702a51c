// swift-format-ignore-file
import Foundation

final class Inbox {
    private var account: Account?
    private var pending: [(Bool) -> Void] = []

    func refresh(completion: @escaping (Bool) -> Void) {
        guard let account else {
            completion(false)
            return
        }
        if account.isBusy {
            // Kept, and called when the running fetch ends.
            pending.append(completion)
            return
        }
        account.fetch { messages in
            Store.save(messages)
            completion(true)
        }
    }

    func cancel() {}
}
