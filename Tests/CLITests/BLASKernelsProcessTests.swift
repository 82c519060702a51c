import Foundation
import Learning
import TestSupport
import Testing

/// `pipeline` on a CPU that Debian's OpenBLAS does not recognize (it falls back to its SSE3 `Prescott`
/// kernels) loads the library again with OPENBLAS_CORETYPE set, so the fits use the CPU's AVX2 or AVX-512 units.
@Suite("OpenBLAS kernels of the pipeline process", .timeLimit(.minutes(2)))
struct BLASKernelsProcessTests {
    /// The kernels OpenBLAS reported, in order (OPENBLAS_VERBOSE=2 prints "Core: NAME" as it loads).
    static func cores(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").compactMap { line in
            line.hasPrefix("Core: ") ? String(line.dropFirst("Core: ".count)) : nil
        }
    }

    static var flags: Set<String> {
        BLASKernels.cpuFlags(cpuinfo: (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? "")
    }

    /// A command that fits models loads OpenBLAS first, also when it is only asked for its help (`--help` alone, or
    /// `audit`, loads nothing: `commandNeedsLinearAlgebra`).
    static let loadingCommand = ["retrain", "--help"]

    @Test("the process ends up on kernels that use the CPU's vector units, whatever OpenBLAS first chose")
    func runsRecognizedKernels() async throws {
        let run = try await runBinary(Self.loadingCommand, environment: ["OPENBLAS_VERBOSE": "2"])
        #expect(run.status == 0, "\(run.stderr)")
        let cores = Self.cores(run.stderr)
        let final = try #require(cores.last, "OpenBLAS printed no core: \(run.stderr)")
        if Self.flags.isSuperset(of: ["avx2", "fma"]) {
            #expect(final != "Prescott", "OpenBLAS chose \(cores)")
        }
        // At most one second load, and only away from the fallback.
        #expect(cores.count == 1 || (cores.count == 2 && cores[0] == "Prescott"), "\(cores)")
        #expect(run.stdout.contains("Usage: pipeline retrain"))
    }

    @Test("the audit and --help load no OpenBLAS")
    func auditLoadsNothing() async throws {
        for arguments in [["--help"], ["audit", "--help"]] {
            let run = try await runBinary(arguments, environment: ["OPENBLAS_VERBOSE": "2"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(Self.cores(run.stderr).isEmpty, "\(arguments): \(run.stderr)")
        }
    }

    @Test("an operator's OPENBLAS_CORETYPE is kept as given, with no second load")
    func operatorChoiceKept() async throws {
        let run = try await runBinary(
            Self.loadingCommand, environment: ["OPENBLAS_VERBOSE": "2", "OPENBLAS_CORETYPE": "Prescott"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.cores(run.stderr) == ["Prescott"])
    }
}
