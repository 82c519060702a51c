// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

@main
struct JournalApp: App {
    @Environment(\.scenePhase) private var scenePhase

    init() {
        // An App's initialiser runs during launch, before any scene exists.
        BGTaskScheduler.shared.register(forTaskWithIdentifier: TaskNames.digest, using: nil) { task in
            DigestTask.run(task)
        }
    }

    var body: some Scene {
        WindowGroup { ContentView() }
            .onChange(of: scenePhase) { _, phase in
                if phase == .background { DigestTask.schedule() }
            }
    }
}

enum TaskNames {
    static let digest = "com.example.digest"
}

enum DigestTask {
    static func schedule() {
        let request = BGProcessingTaskRequest(identifier: TaskNames.digest)
        request.requiresNetworkConnectivity = true
        try? BGTaskScheduler.shared.submit(request)
    }

    static func run(_ task: BGTask) {
        schedule()
        let work = Task { try await Digest.build() }
        task.expirationHandler = { work.cancel() }
        Task {
            let result = await work.result
            task.setTaskCompleted(success: (try? result.get()) != nil)
        }
    }
}
