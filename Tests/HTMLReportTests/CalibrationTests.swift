import HTMLReport
import Testing

@Suite("Calibration bins")
struct CalibrationTests {
    @Test(
        "predictions fall in tenths; each bin has its mean prediction and flare rate; the Brier score is the mean square"
    )
    func bins() {
        let calibration = Calibration(pairs: [
            (0.05, false), (0.08, true), (0.10, false), (0.95, true), (1.0, true), (0.35, false),
        ])
        #expect(calibration.count == 6)
        #expect(calibration.bins.map(\.count) == [2, 1, 1, 2])
        let first = calibration.bins[0]
        #expect(first.lower == 0 && first.upper == 0.1)
        #expect(abs(first.meanPrediction - 0.065) < 1e-12)
        #expect(first.observedRate == 0.5)
        // 0.1 is the second bin's lower edge; 1.0 belongs to the last bin.
        #expect(calibration.bins[1].lower == 0.1 && calibration.bins[1].observedRate == 0)
        #expect(abs(calibration.bins[3].meanPrediction - 0.975) < 1e-12)
        // (0.05² + 0.92² + 0.1² + 0.05² + 0² + 0.35²) / 6, by hand.
        let brier = (0.0025 + 0.8464 + 0.01 + 0.0025 + 0 + 0.1225) / 6
        #expect(abs((calibration.brierScore ?? -1) - brier) < 1e-12)
    }

    @Test("no prediction gives no bins and no score")
    func empty() {
        let calibration = Calibration(pairs: [])
        #expect(calibration.bins.isEmpty && calibration.count == 0 && calibration.brierScore == nil)
    }
}
