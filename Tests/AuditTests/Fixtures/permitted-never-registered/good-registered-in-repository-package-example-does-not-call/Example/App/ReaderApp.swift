// swift-format-ignore-file
import ReaderFeature
import SwiftUI

@main
struct ReaderApp: App {
    init() {
        FeedRefresher.shared.schedule()
    }

    var body: some Scene {
        WindowGroup { FeedView() }
    }
}
