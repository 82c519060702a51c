// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

/// The stop task is registered by a service the app makes at launch (`StopService.shared`), and a view submits
/// requests for it.
@main
struct FleetApp: App {
    init() { _ = StopService.shared }

    var body: some Scene {
        WindowGroup { MachineRow() }
    }
}

struct MachineRow: View {
    var body: some View {
        Button("Stop tonight") { bookStop() }
    }

    private func bookStop() {
        let request = BGProcessingTaskRequest(identifier: "com.example.fleet.stop")
        request.requiresNetworkConnectivity = true
        try? BGTaskScheduler.shared.submit(request)
    }
}

final class StopService {
    static let shared = StopService()

    private init() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.fleet.stop", using: nil) { task in
            try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: "com.example.fleet.stop"))
            task.expirationHandler = {}
            task.setTaskCompleted(success: true)
        }
    }
}
