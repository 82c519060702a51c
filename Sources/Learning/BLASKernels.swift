internal import COpenBLAS
internal import Foundation

/// Which of OpenBLAS's kernels this process runs, and a better choice when OpenBLAS did not recognize the CPU.
///
/// Debian's OpenBLAS (0.3.21) picks its kernels by CPU model when the library loads. A processor newer than
/// the library (an Intel Xeon of family 6, model 207, for one) is not in its table, and it falls back to
/// `Prescott`: SSE3 kernels that ignore the AVX2, FMA and AVX-512 units the processor has, and the fits run
/// slower (docs/benchmarks.md). The only remedy is `OPENBLAS_CORETYPE`, read once as the library loads, so it must be
/// in the environment before the library loads: `load` loads it again with the variable set (the library is
/// loaded at run time, not linked), and `advice` says what to set for a caller that cannot.
public enum BLASKernels {
    /// The environment variable OpenBLAS reads for its kernels.
    public static let environmentVariable = "OPENBLAS_CORETYPE"

    /// The kernels OpenBLAS chose for this process, e.g. `Haswell`, `SkylakeX`, `Cooperlake` or `Prescott`.
    public static var current: String {
        guard let name = copenblas_get_corename() else { return "unknown" }
        return String(cString: name)
    }

    /// The kernels to ask for instead of `current`, or nil when `current` is fine: only OpenBLAS's fallback
    /// for a CPU it does not know (`Prescott`) is replaced, by `SkylakeX` when the CPU (and the kernel, which
    /// hides what it cannot save) offers AVX-512 F, CD, BW, DQ and VL, else by `Haswell` with AVX2 and FMA.
    /// `flags` are the words of the `flags` line of /proc/cpuinfo.
    public static func preferred(current: String, flags: Set<String>) -> String? {
        guard current.lowercased() == "prescott" else { return nil }
        if flags.isSuperset(of: ["avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"]) { return "SkylakeX" }
        if flags.isSuperset(of: ["avx2", "fma"]) { return "Haswell" }
        return nil
    }

    /// The words of the first `flags` line of a /proc/cpuinfo text (empty when there is none).
    public static func cpuFlags(cpuinfo: String) -> Set<String> {
        for line in cpuinfo.split(separator: "\n") where line.hasPrefix("flags") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            return Set(line[line.index(after: colon)...].split(separator: " ").map(String.init))
        }
        return []
    }

    /// The kernels this process should load instead of `current`, or nil: nil too when `OPENBLAS_CORETYPE` is
    /// already set (the operator's choice stands) or /proc/cpuinfo cannot be read.
    public static func advice(environment: [String: String]) -> String? {
        guard environment[environmentVariable] == nil,
            let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        else { return nil }
        return preferred(current: current, flags: cpuFlags(cpuinfo: cpuinfo))
    }

    /// The environment variable OpenBLAS reads for the number of threads it starts as it loads.
    public static let threadsVariable = "OPENBLAS_NUM_THREADS"

    /// Why OpenBLAS could not be loaded: the dynamic loader's message, which names the library.
    public struct LoadError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Loads OpenBLAS for this process, on kernels that use the CPU's vector units: when the library falls
    /// back to its generic kernels, it is unloaded and loaded again with `OPENBLAS_CORETYPE` set to `advice`
    /// (faster than starting the process over). Call it first thing in `main`,
    /// before any thread is started: it sets environment variables, and the library must not be in use while
    /// it is loaded again. Without this call the library loads on the first fit, with the kernels it chooses.
    ///
    /// It also sets `OPENBLAS_NUM_THREADS=1` unless the environment sets it: the fits call OpenBLAS on one
    /// thread each (`LinearAlgebra.singleThreaded`), and a thread pool started as the library loads spins in
    /// `sched_yield` on a core for a while before it sleeps.
    public static func load(environment: [String: String]) throws(LoadError) {
        if environment[threadsVariable] == nil { setenv(threadsVariable, "1", 1) }
        try open()
        guard let kernels = advice(environment: environment) else { return }
        copenblas_unload()
        setenv(environmentVariable, kernels, 1)
        do throws(LoadError) {
            try open()
        } catch {
            // The library loaded a moment ago: go on with the kernels it chooses rather than not at all.
            unsetenv(environmentVariable)
            try open()
        }
    }

    private static func open() throws(LoadError) {
        var message = [CChar](repeating: 0, count: 512)
        guard copenblas_load(&message, message.count) == 0 else {
            throw LoadError(
                description: String(
                    decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                    as: UTF8.self))
        }
    }
}
