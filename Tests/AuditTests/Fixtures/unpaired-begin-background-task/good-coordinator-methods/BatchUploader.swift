// swift-format-ignore-file
import Foundation

final class BatchUploader {
    private let coordinator: UploadTimeCoordinator?

    init(coordinator: UploadTimeCoordinator?) {
        self.coordinator = coordinator
    }

    func upload(_ batches: [Data]) {
        guard !batches.isEmpty else {
            coordinator?.endBackgroundTask()
            return
        }
        coordinator?.beginBackgroundTask()
        Transport.send(batches) { [weak self] in self?.coordinator?.endBackgroundTask() }
    }
}
