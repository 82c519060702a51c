// swift-format-ignore-file
import UIKit

/// Each chunk is transcribed on a serial queue, in a block that begins a task into a property and ends it at its
/// end; the block returns early when the model is not loaded, and the task stays open until it expires.
final class ChunkTranscriber {
    private let queue = DispatchQueue(label: "transcriber")
    private var chunkTask = UIBackgroundTaskIdentifier.invalid
    var model: SpeechModel?

    func transcribe(_ chunk: URL) {
        queue.async {
            self.chunkTask = UIApplication.shared.beginBackgroundTask {
                UIApplication.shared.endBackgroundTask(self.chunkTask)
                self.chunkTask = .invalid
            }
            guard let model = self.model else {
                return // expect: unpaired-begin-background-task
            }
            model.run(on: chunk)
            UIApplication.shared.endBackgroundTask(self.chunkTask)
            self.chunkTask = .invalid
        }
    }
}

final class SpeechModel {
    func run(on chunk: URL) {}
}
