// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

/// The expiration handler logs and books the next run — withdrawing the pending request and submitting a new one —
/// but cancels nothing that runs now and never completes the task: the import goes on after time is up.
@main
struct GalleryApp: App {
    init() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.gallery.import", using: nil) { task in
            Importer.run(task as! BGProcessingTask)
        }
        Importer.book()
    }

    var body: some Scene {
        WindowGroup { Text("Gallery") }
    }
}

enum Importer {
    static func run(_ task: BGProcessingTask) {
        task.expirationHandler = { // expect: handler-missing-expiration-handler
            print("import ran out of time")
            book()
        }
        Task {
            await Library.importNewPhotos()
            task.setTaskCompleted(success: true)
            book()
        }
    }

    static func book() {
        BGTaskScheduler.shared.cancel(taskRequestWithIdentifier: "com.example.gallery.import")
        let request = BGProcessingTaskRequest(identifier: "com.example.gallery.import")
        request.requiresExternalPower = true
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            print("could not book the import: \(error)")
        }
    }
}

enum Library {
    static func importNewPhotos() async {}
}
