// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

// SwiftUI's scene modifier registers the handler itself, at launch: no register call in a view.
@main
struct WeatherApp: App {
    @Environment(\.scenePhase) private var scenePhase

    var body: some Scene {
        WindowGroup { ForecastView() }
            .onChange(of: scenePhase) { _, phase in
                if phase == .background { scheduleForecastRefresh() }
            }
            .backgroundTask(.appRefresh("com.example.forecast")) {
                scheduleForecastRefresh()
                await ForecastStore.shared.refresh()
            }
    }
}

func scheduleForecastRefresh() {
    let request = BGAppRefreshTaskRequest(identifier: "com.example.forecast")
    request.earliestBeginDate = .now.addingTimeInterval(3600)
    try? BGTaskScheduler.shared.submit(request)
}
