// swift-format-ignore-file
import CoreBluetooth
import UIKit

/// A pair of helpers keeps the task in a property: `holdTask()` begins it, `releaseTask()` ends it. The write
/// callback holds the task around its work, but the `guard` that turns away an unreadable value returns between
/// the two, and the task stays open until it expires.
final class SensorLink: NSObject, CBPeripheralManagerDelegate {
    private var heldTask: UIBackgroundTaskIdentifier = .invalid
    private var sampleRate = 1.0

    func peripheralManagerDidUpdateState(_ peripheral: CBPeripheralManager) {}

    func peripheralManager(_ peripheral: CBPeripheralManager, didReceiveWrite requests: [CBATTRequest]) {
        holdTask()
        for request in requests {
            guard let value = request.value, let rate = Double(String(decoding: value, as: UTF8.self)) else {
                return
            }
            sampleRate = rate
            peripheral.respond(to: request, withResult: .success)
        }
        releaseTask()
    }

    private func holdTask() {
        heldTask = UIApplication.shared.beginBackgroundTask { [unowned self] in // expect: unpaired-begin-background-task
            UIApplication.shared.endBackgroundTask(self.heldTask)
            self.heldTask = .invalid
        }
    }

    private func releaseTask() {
        UIApplication.shared.endBackgroundTask(heldTask)
        heldTask = .invalid
    }
}
