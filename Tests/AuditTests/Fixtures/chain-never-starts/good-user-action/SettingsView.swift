// swift-format-ignore-file
import SwiftUI

struct SettingsView: View {
    @AppStorage("backups") private var backups = false

    var body: some View {
        Toggle("Nightly backups", isOn: $backups)
            .onChange(of: backups) { enabled in
                // Turning backups on makes the first request.
                if enabled { Backup.scheduleNext() }
            }
    }
}
