// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

/// The expiration handler books the next run (withdrawing the pending request, submitting a new one) and also
/// cancels the running import, whose end completes the task: time running out stops the work.
@main
struct AlbumApp: App {
    init() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.album.import", using: nil) { task in
            AlbumImporter.run(task as! BGProcessingTask)
        }
        AlbumImporter.book()
    }

    var body: some Scene {
        WindowGroup { Text("Album") }
    }
}

enum AlbumImporter {
    static func run(_ task: BGProcessingTask) {
        let work = Task {
            let imported = await Photos.importNew()
            task.setTaskCompleted(success: imported && !Task.isCancelled)
            book()
        }
        task.expirationHandler = {
            print("import ran out of time")
            book()
            work.cancel()
        }
    }

    static func book() {
        BGTaskScheduler.shared.cancel(taskRequestWithIdentifier: "com.example.album.import")
        let request = BGProcessingTaskRequest(identifier: "com.example.album.import")
        request.requiresExternalPower = true
        try? BGTaskScheduler.shared.submit(request)
    }
}

enum Photos {
    static func importNew() async -> Bool { true }
}
