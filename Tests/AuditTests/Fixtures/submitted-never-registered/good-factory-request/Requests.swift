// swift-format-ignore-file
import BackgroundTasks

enum Requests {
    static let cleanupIdentifier = "com.example.cleanup"

    static func cleanup() -> BGProcessingTaskRequest {
        let request = BGProcessingTaskRequest(identifier: cleanupIdentifier)
        request.requiresExternalPower = true
        return request
    }
}
