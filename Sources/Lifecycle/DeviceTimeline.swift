import Domain

/// What happens on the simulated phone over the whole run, decided up front from the seed: when the
/// user opens and leaves the app, when the phone charges, when the system would grant a background
/// launch, and when it runs short of memory. Both apps live through the same timeline, so they differ
/// only in their own code.
///
/// The usage pattern: 0 to 3 visits a day (none on one day in ten) between 08:00 and 22:00, each 1 to
/// 10 minutes. Charging: nine nights in ten, plugged in between 22:00 and 23:30 and unplugged between
/// 06:00 and 07:30. The system offers an app-refresh launch three times a day at random and once 15 to
/// 90 minutes after each visit (iOS favours apps the user has just used), a processing launch twice a
/// night between 01:00 and 05:00 (when an idle phone does maintenance), and runs short of memory twice
/// a day. The random draws of a day never depend on the device settings, so two runs with one seed
/// and different settings have the same days.
struct DeviceTimeline: Sendable {
    enum Event: Sendable, Hashable {
        case open
        case leave
        case forceQuit
        case plugIn
        case unplug
        /// The system would launch an app in the background for a due app-refresh request now.
        case refreshWindow
        /// The phone is idle: the system would launch an app for a due processing request now.
        case processingWindow
        case memoryPressure
    }

    struct Entry: Sendable, Hashable {
        let offset: Duration
        let event: Event
    }

    /// Every event, in time order (events at one instant in the order they were drawn).
    let entries: [Entry]
    /// The user's visits to the app.
    let visits: [Range<Duration>]
    /// When the phone was on external power.
    let charging: [Range<Duration>]
    /// When the user force-quit the app, if they did.
    let forceQuit: Duration?

    private static let day: Int64 = 86_400

    /// `forceQuitDay` is 1-based: the user swipes the app away at the end of that day's last visit, or
    /// at 21:00 if they did not open it that day.
    init(days: Int, seed: UInt64, forceQuitDay: Int?) {
        var random = SeededRandom(seed: seed)
        var drawn: [Entry] = []
        var visits: [Range<Duration>] = []
        var charging: [Range<Duration>] = []
        var forceQuit: Duration?
        func at(_ seconds: Int64, _ event: Event) {
            drawn.append(Entry(offset: .seconds(seconds), event: event))
        }
        func draw(_ range: ClosedRange<Int64>) -> Int64 {
            range.lowerBound + Int64(random.unit() * Double(range.upperBound - range.lowerBound + 1))
        }

        for day in 0..<days {
            let midnight = Int64(day) * Self.day
            // The night that ends this morning; the first one began before the run.
            if random.chance(0.9) {
                let plugIn = max(0, midnight - draw(1_800...7_200))
                let unplug = midnight + draw(21_600...27_000)
                charging.append(.seconds(plugIn)..<(.seconds(unplug)))
                at(plugIn, .plugIn)
                at(unplug, .unplug)
            }
            for _ in 0..<2 {
                at(midnight + draw(3_600...18_000), .processingWindow)
            }

            let roll = random.unit()
            let count = roll < 0.1 ? 0 : roll < 0.4 ? 1 : roll < 0.75 ? 2 : 3
            let starts = (0..<count).map { _ in midnight + draw(28_800...79_200) }.sorted()
            var previousEnd = midnight
            var today: [(start: Int64, end: Int64)] = []
            for drawnStart in starts {
                let start = max(drawnStart, previousEnd + 60)
                let end = start + draw(60...600)
                today.append((start, end))
                previousEnd = end
            }
            let forceQuitsToday = forceQuitDay == day + 1
            for (index, visit) in today.enumerated() {
                visits.append(.seconds(visit.start)..<(.seconds(visit.end)))
                at(visit.start, .open)
                if forceQuitsToday && index == today.count - 1 {
                    at(visit.end, .forceQuit)
                    forceQuit = .seconds(visit.end)
                } else {
                    at(visit.end, .leave)
                }
                at(visit.end + draw(900...5_400), .refreshWindow)
            }
            if forceQuitsToday && today.isEmpty {
                at(midnight + 21 * 3_600, .forceQuit)
                forceQuit = .seconds(midnight + 21 * 3_600)
            }
            for _ in 0..<3 {
                at(midnight + draw(0...(Self.day - 1)), .refreshWindow)
            }
            for _ in 0..<2 {
                at(midnight + draw(0...(Self.day - 1)), .memoryPressure)
            }
        }

        let end = Duration.seconds(Int64(days) * Self.day)
        entries = drawn.enumerated()
            .filter { $0.element.offset < end }
            .sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
            .map(\.element)
        self.visits = visits
        self.charging = charging
        self.forceQuit = forceQuit
    }
}
