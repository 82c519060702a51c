// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

/// The stop task is registered only by a service nothing makes (its `shared` instance is never touched), while a
/// view submits requests for it: no launch handler runs for the identifier, and the submit fails.
@main
struct FleetApp: App {
    var body: some Scene {
        WindowGroup { MachineRow() }
    }
}

struct MachineRow: View {
    var body: some View {
        Button("Stop tonight") { bookStop() }
    }

    private func bookStop() {
        let request = BGProcessingTaskRequest(identifier: "com.example.fleet.stop") // expect: submitted-never-registered
        request.requiresNetworkConnectivity = true
        try? BGTaskScheduler.shared.submit(request)
    }
}

final class StopService {
    static let shared = StopService()

    private init() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.fleet.stop", using: nil) { task in
            task.expirationHandler = {}
            task.setTaskCompleted(success: true)
        }
    }
}
