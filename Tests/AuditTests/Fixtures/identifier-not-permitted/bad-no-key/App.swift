// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

@main
struct FocusApp: App {
    var body: some Scene {
        WindowGroup { FocusView() }
            .backgroundTask(.appRefresh("com.example.focus")) { // expect: identifier-not-permitted
                scheduleFocusRefresh()
                await FocusStore.shared.refresh()
            }
    }

    init() { scheduleFocusRefresh() }
}

func scheduleFocusRefresh() {
    try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.focus"))
}
