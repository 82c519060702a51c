// The fitting half of `scripts/bench.sh retrain`: Learning's fits on the design matrices that
// `pipeline features` exported, the same work `scripts/reference/bench_sklearn.py` times for
// scikit-learn (standardization, RidgeCV over the spec's alphas by exact leave-one-out, logistic
// regression by Newton's method). Not part of the product; the benchmark script builds and runs it.
//
//   pipeline-bench DIRECTORY [--workers N] [--repeat R] [--rounds K] [--select]
//
// Prints one line of JSON: users, workers, seconds (the fastest pass), users_per_second. A pass fits every
// matrix K times (1): on two cores one round of the benchmark's 580 matrices takes about 0.1 s, short enough
// for a moment's load elsewhere on the machine to move it by a third.
// `--select` times the whole of a user's learning instead (one worker): the personal fit, the
// rolling-origin folds, every candidate's scores and the served artifact, with a population model pooled
// once, before the clock starts, from the same matrices, each user's "today" the day after their last row.

import Domain
import Foundation
import Learning

// The kernels `pipeline` itself runs with (see BLASKernels): the benchmark measures what users get.
try BLASKernels.load(environment: ProcessInfo.processInfo.environment)

let arguments = Array(CommandLine.arguments.dropFirst())
guard let directory = arguments.first else {
    FileHandle.standardError.write(Data("usage: pipeline-bench DIRECTORY [--workers N] [--repeat R]\n".utf8))
    exit(64)
}
func option(_ name: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
        let number = Int(arguments[index + 1])
    else { return value }
    return number
}
let workers = option("--workers", default: 1)
let repeats = option("--repeat", default: 3)
let rounds = max(1, option("--rounds", default: 1))
let selecting = arguments.contains("--select")

// Files are parsed before the clock starts; the timing covers the fits only, as the Python side's.
let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".csv") }.sorted()
var designs: [DesignMatrix] = []
for file in files {
    let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
    designs.append(try DesignMatrix(csv: text))
}

// One worker fits in a plain loop on the main thread; more go through `fitAll`'s task group, started from
// here and waited for. The main thread never parks in the concurrency runtime's main loop, so the binary
// also runs under `valgrind --tool=callgrind` (scripts/bench.sh instructions), which that loop crashes.
/// The task's error, written before the semaphore is signalled and read after it is waited for.
final class Failure: @unchecked Sendable {
    var error: (any Error)?
}

func fitOnce(_ designs: [DesignMatrix], workers: Int) throws -> Double {
    let start = ContinuousClock.now
    if workers <= 1 {
        var trainer = ModelTrainer()
        for _ in 0..<rounds {
            for design in designs { _ = try trainer.fit(design) }
        }
    } else {
        let done = DispatchSemaphore(value: 0)
        let failure = Failure()
        Task {
            do {
                for _ in 0..<rounds { _ = try await ModelTrainer.fitAll(designs, workers: workers) }
            } catch {
                failure.error = error
            }
            done.signal()
        }
        done.wait()
        if let error = failure.error { throw error }
    }
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// Trains every user as a retrain does, from their design matrix and a population pooled from all of them.
func selectOnce(_ designs: [DesignMatrix], population: PopulationModel, todays: [Day]) throws -> Double {
    let start = ContinuousClock.now
    var trainer = ModelTrainer()
    let trainedAt = Date(timeIntervalSince1970: 0)
    for (index, design) in designs.enumerated() {
        _ = try trainer.train(
            user: UserID("user-\(index)")!, design: design, today: todays[index], population: population,
            trainedAt: trainedAt)
    }
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

var fastest = Double.infinity
if selecting {
    let todays = designs.map { $0.days.last!.adding(days: 1) }
    var accumulator = PopulationAccumulator(today: todays.max()!)
    for (index, design) in designs.enumerated() { accumulator.add(user: UserID("user-\(index)")!, design: design) }
    let population = try accumulator.model(trainedAt: Date(timeIntervalSince1970: 0))
    for _ in 0..<max(1, repeats) {
        fastest = min(fastest, try selectOnce(designs, population: population, todays: todays))
    }
} else {
    for _ in 0..<max(1, repeats) { fastest = min(fastest, try fitOnce(designs, workers: workers)) }
}
let fits = designs.count * (selecting ? 1 : rounds)
print(
    #"{"users":\#(designs.count),"workers":\#(workers),"seconds":\#(fastest),"users_per_second":\#(Double(fits) / fastest)}"#
)
