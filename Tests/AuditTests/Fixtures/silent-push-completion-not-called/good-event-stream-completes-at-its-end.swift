// swift-format-ignore-file
import CloudKit
import RxSwift
import UIKit

/// A library's entry point that hands the completion handler to a stream of change events: each element (`.next`)
/// is stored as it comes and owes nothing; the stream's end, `.completed` or `.error`, calls the completion handler.
public final class ChangeFeed {
    private let bag = DisposeBag()
    private var changes: [String] = []

    public func applicationDidReceiveRemoteNotification(userInfo: [AnyHashable: Any], fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
        Store.changes().subscribe { event in
            switch event {
            case .next(let change):
                switch change {
                case .inserted(let id): self.changes.append(id)
                case .removed(let id): self.changes.removeAll { $0 == id }
                }
            case .error:
                completionHandler(.failed)
            case .completed:
                completionHandler(self.changes.isEmpty ? .noData : .newData)
            }
        }.disposed(by: bag)
    }
}

enum Change {
    case inserted(String)
    case removed(String)
}

enum Store {
    static func changes() -> Observable<Change> { .empty() }
}
