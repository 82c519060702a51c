// swift-format-ignore-file
import BackgroundTasks

/// A kind of data the app refreshes in the background, each under its own task identifier.
protocol RefreshCoordinator {
    var taskID: String { get }
    var scheduler: TaskScheduling { get }
    func refresh(completion: @escaping (Bool) -> Void)
}

extension RefreshCoordinator {
    func initialize() {
        _ = scheduler.registerHandler(forTaskWithIdentifier: taskID, using: .main) { task in
            submitRequest()
            task.expirationHandler = {
                cancelRefresh()
                task.setTaskCompleted(success: false)
            }
            refresh { task.setTaskCompleted(success: $0) }
        }
    }

    func cancelRefresh() {}

    func submitRequest() {
        try? scheduler.submit(BGAppRefreshTaskRequest(identifier: taskID))
    }
}

struct InboxRefreshCoordinator: RefreshCoordinator {
    let taskID = "com.example.mail.refresh.inbox"
    let scheduler: TaskScheduling
    func refresh(completion: @escaping (Bool) -> Void) { Inbox.sync(completion) }
}

struct ContactsRefreshCoordinator: RefreshCoordinator {
    let taskID = "com.example.mail.refresh.contacts"
    let scheduler: TaskScheduling
    func refresh(completion: @escaping (Bool) -> Void) { Contacts.sync(completion) }
}
