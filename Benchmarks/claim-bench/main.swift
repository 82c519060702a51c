// The claim half of `scripts/bench.sh postgres`: how many scheduler requests per second workers claim
// and finish from one database, as a launch does: each claim takes up to BATCH due requests (1 by
// default) and the batch's runs are recorded in one transaction. Not part of the product; the benchmark
// script builds and runs it.
//
//   claim-bench seed DATABASE REQUESTS          submits REQUESTS due requests (one per scope)
//   claim-bench work DATABASE WORKER [BATCH]    claims and finishes requests until none is due; prints
//                                               one line of JSON: worker, claims, requests, seconds
//
// DATABASE is a path (SQLite) or a postgresql:// URL. Several `work` processes started at once
// share the requests; the script divides the total by the wall time.

import Foundation
import Storage

let arguments = Array(CommandLine.arguments.dropFirst())
guard (3...4).contains(arguments.count), let mode = arguments.first, ["seed", "work"].contains(mode),
    arguments.count == 3 || (mode == "work" && (Int(arguments[3]) ?? 0) > 0)
else {
    FileHandle.standardError.write(
        Data("usage: claim-bench seed DATABASE REQUESTS | work DATABASE WORKER [BATCH]\n".utf8))
    exit(64)
}
let identifier = "claim-bench"

do {
    let store = try Store(path: arguments[1])
    switch mode {
    case "seed":
        guard let count = Int(arguments[2]), count > 0 else { exit(64) }
        let requests = (0..<count).map { index in
            NewTaskRequest(identifier: identifier, scope: "scope-\(index)", kind: .refresh, earliestBeginAt: nil)
        }
        try await store.submit(requests, replacing: false)
        // As a launch does before it claims: the run history's partitions of today (PostgreSQL).
        try await store.prepareRunHistory()
    default:
        let worker = arguments[2]
        let batch = arguments.count == 4 ? Int(arguments[3])! : 1
        var claims = 0
        var requests = 0
        let start = ContinuousClock.now
        while true {
            let claim = TaskClaim(
                owner: worker, refreshLease: 60, processingLease: 60, isOnExternalPower: true,
                hasNetworkConnectivity: true, identifiers: [identifier], scope: nil, limit: batch)
            let claimed = try await store.claimTaskRequests(claim)
            guard !claimed.isEmpty else { break }
            let finishes = try await store.finishTaskRuns(
                claimed.map { TaskRunCompletion($0, owner: worker, outcome: .success, reason: nil, retryAt: nil) })
            guard finishes.allSatisfy({ $0 != .leaseLost }) else {
                FileHandle.standardError.write(Data("claim-bench: a run lost its lease\n".utf8))
                exit(1)
            }
            claims += 1
            requests += claimed.count
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print(#"{"worker":"\#(worker)","claims":\#(claims),"requests":\#(requests),"seconds":\#(seconds)}"#)
    }
} catch {
    FileHandle.standardError.write(Data("claim-bench: \(error)\n".utf8))
    exit(1)
}
