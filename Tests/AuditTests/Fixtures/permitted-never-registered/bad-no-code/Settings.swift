// swift-format-ignore-file
import SwiftUI

// The task was removed from the code; its permission stayed behind.
struct SettingsView: View {
    @AppStorage("reminderHour") private var reminderHour = 20

    var body: some View {
        Stepper("Reminder at \(reminderHour):00", value: $reminderHour, in: 6...22)
    }
}
