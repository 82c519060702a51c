// swift-format-ignore-file
import BackgroundTasks
import XCTest

/// A test target's registration: it runs under the test runner, never when the system launches the app, so its
/// handler owes the system nothing.
final class RefreshTests: XCTestCase {
    func testRegistersOnce() {
        let registered = BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.test", using: nil) { task in
            guard task is BGAppRefreshTask else { return }
            XCTFail("not run in tests")
        }
        XCTAssertTrue(registered)
    }
}
