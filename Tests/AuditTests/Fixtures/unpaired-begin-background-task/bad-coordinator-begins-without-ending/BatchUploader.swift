// swift-format-ignore-file
import Foundation

final class BatchUploader {
    private let coordinator: UploadTimeCoordinator?

    init(coordinator: UploadTimeCoordinator?) {
        self.coordinator = coordinator
    }

    func upload(_ batches: [Data]) {
        coordinator?.beginBackgroundTask()
        Transport.send(batches) { [weak self] in self?.coordinator?.endBackgroundTask() }
    }
}
