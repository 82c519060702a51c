// swift-format-ignore-file
import BackgroundTasks
import UIKit

// A processing task submitted when the user queues work: each run drains the queue, and the next request comes with
// the next recording, not from the handler. It is no chain that stops.
@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.transcribe", using: nil) { task in
            TranscriptionQueue.shared.drain(task as! BGProcessingTask)
        }
        return true
    }
}

final class TranscriptionQueue {
    static let shared = TranscriptionQueue()
    private var pending: [URL] = []

    func enqueue(_ recording: URL) {
        pending.append(recording)
        let request = BGProcessingTaskRequest(identifier: "com.example.transcribe")
        request.requiresNetworkConnectivity = true
        try? BGTaskScheduler.shared.submit(request)
    }

    func drain(_ task: BGProcessingTask) {
        let work = Task {
            for recording in pending where !Task.isCancelled {
                await Transcriber.transcribe(recording)
            }
            task.setTaskCompleted(success: !Task.isCancelled)
        }
        task.expirationHandler = { work.cancel() }
    }
}

final class RecorderViewController: UIViewController {
    private let recorder = Recorder()

    @IBAction func stopTapped(_ sender: Any) {
        let recording = recorder.stop()
        TranscriptionQueue.shared.enqueue(recording)
    }
}
