// swift-format-ignore-file
import BackgroundTasks

enum Work {
    case refresh(identifier: String)
    case processing(identifier: String, needsPower: Bool)
}

/// Each `case` binds its own `request`: the requirements are set on the processing one only.
func makeRequest(for work: Work) -> BGTaskRequest {
    switch work {
    case .refresh(let identifier):
        let request = BGAppRefreshTaskRequest(identifier: identifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 900)
        return request
    case .processing(let identifier, let needsPower):
        let request = BGProcessingTaskRequest(identifier: identifier)
        request.requiresNetworkConnectivity = true
        request.requiresExternalPower = needsPower
        return request
    }
}
