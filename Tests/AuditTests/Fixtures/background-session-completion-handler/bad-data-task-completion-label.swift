// swift-format-ignore-file
import Foundation

final class ReportSender {
    private let session: URLSession

    init() {
        let config = URLSessionConfiguration.background(withIdentifier: "com.example.reports")
        config.sessionSendsLaunchEvents = true
        session = URLSession(configuration: config, delegate: nil, delegateQueue: nil) // expect: background-session-without-delegate
    }

    func fetchStatus(_ request: URLRequest) {
        let task = session.dataTask(with: request, completionHandler: { data, response, error in // expect: background-session-completion-handler
            print(data?.count ?? 0, response as Any, error as Any)
        })
        task.resume()
    }
}
