import Testing

@testable import Learning

@Suite("OpenBLAS's kernels for the CPU")
struct BLASKernelsTests {
    static let avx512 = Set(["sse2", "avx", "avx2", "fma", "avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"])

    @Test("OpenBLAS's fallback for a CPU it does not know is replaced by the widest kernels the CPU runs")
    func fallbackReplaced() {
        #expect(BLASKernels.preferred(current: "Prescott", flags: Self.avx512) == "SkylakeX")
        #expect(BLASKernels.preferred(current: "Prescott", flags: ["sse2", "avx", "avx2", "fma"]) == "Haswell")
        // AVX-512 without BW and VL (the first Xeon Phi) is not what the SkylakeX kernels need.
        #expect(BLASKernels.preferred(current: "Prescott", flags: ["avx2", "fma", "avx512f", "avx512cd"]) == "Haswell")
        #expect(BLASKernels.preferred(current: "Prescott", flags: ["sse2", "sse3", "avx"]) == nil)
    }

    @Test("kernels OpenBLAS chose for a CPU it knows are kept")
    func recognizedKept() {
        for current in ["Haswell", "SkylakeX", "Cooperlake", "Zen", "Sandybridge"] {
            #expect(BLASKernels.preferred(current: current, flags: Self.avx512) == nil, "\(current)")
        }
    }

    @Test("the CPU's flags are the words of the first flags line of /proc/cpuinfo")
    func flagsParsed() {
        let cpuinfo = """
            processor\t: 0
            model name\t: Intel(R) Xeon(R) Processor
            flags\t\t: fpu sse2 avx2 fma avx512f
            bugs\t\t: spectre_v1

            processor\t: 1
            flags\t\t: fpu
            """
        #expect(BLASKernels.cpuFlags(cpuinfo: cpuinfo) == ["fpu", "sse2", "avx2", "fma", "avx512f"])
        #expect(BLASKernels.cpuFlags(cpuinfo: "processor\t: 0\n").isEmpty)
    }

    @Test("an operator's OPENBLAS_CORETYPE stands")
    func operatorChoiceStands() {
        #expect(BLASKernels.advice(environment: ["OPENBLAS_CORETYPE": "Prescott"]) == nil)
        #expect(BLASKernels.advice(environment: ["OPENBLAS_CORETYPE": ""]) == nil)
    }
}
