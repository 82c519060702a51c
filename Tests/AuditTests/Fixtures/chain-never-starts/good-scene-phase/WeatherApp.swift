// swift-format-ignore-file
import BackgroundTasks
import SwiftUI

@main
struct WeatherApp: App {
    @Environment(\.scenePhase) private var phase

    var body: some Scene {
        WindowGroup { ForecastView() }
            .onChange(of: phase) { newPhase in
                if newPhase == .background { Forecasts.schedule() }
            }
            .backgroundTask(.appRefresh("com.example.forecast")) {
                Forecasts.schedule()
                await Forecasts.refresh()
            }
    }
}
