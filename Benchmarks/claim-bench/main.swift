// The claim half of `scripts/bench.sh postgres`: how many scheduler claims per second workers get
// from one database, each claim taking one due request and finishing it, as a launch does. Not part
// of the product; the benchmark script builds and runs it.
//
//   claim-bench seed DATABASE REQUESTS    submits REQUESTS due requests (one per scope)
//   claim-bench work DATABASE WORKER      claims and finishes requests until none is due; prints
//                                         one line of JSON: worker, claims, seconds
//
// DATABASE is a path (SQLite) or a postgresql:// URL. Several `work` processes started at once
// share the requests; the script divides the total by the wall time.

import Foundation
import Storage

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 3, let mode = arguments.first, ["seed", "work"].contains(mode) else {
    FileHandle.standardError.write(Data("usage: claim-bench seed DATABASE REQUESTS | work DATABASE WORKER\n".utf8))
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
    default:
        let worker = arguments[2]
        var claims = 0
        let start = ContinuousClock.now
        while true {
            let claim = TaskClaim(
                owner: worker, refreshLease: 60, processingLease: 60, isOnExternalPower: true,
                hasNetworkConnectivity: true, identifiers: [identifier], scope: nil, limit: 1)
            let claimed = try await store.claimTaskRequests(claim)
            guard let first = claimed.first else { break }
            _ = try await store.finishTaskRun(
                TaskRunCompletion(
                    runID: first.runID, requestID: first.request.id, owner: worker, attempt: first.request.attempts,
                    outcome: .success, reason: nil, retryAt: nil))
            claims += 1
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print(#"{"worker":"\#(worker)","claims":\#(claims),"seconds":\#(seconds)}"#)
    }
} catch {
    FileHandle.standardError.write(Data("claim-bench: \(error)\n".utf8))
    exit(1)
}
