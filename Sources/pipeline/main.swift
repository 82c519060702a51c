import Foundation
import Learning
import PipelineCLI
import PipelineKit

let arguments = Array(CommandLine.arguments.dropFirst())

// Before anything else: OpenBLAS loads on kernels that use this CPU's vector units, set before it loads
// (a CPU it does not recognize gets its slowest kernels otherwise; see BLASKernels). The audit fits nothing and
// runs without it.
if commandNeedsLinearAlgebra(arguments) {
    do throws(BLASKernels.LoadError) {
        try BLASKernels.load(environment: ProcessInfo.processInfo.environment)
    } catch {
        FileHandle.standardError.write(
            Data("Error: cannot load OpenBLAS (\(error)); on Debian: apt-get install libopenblas0\n".utf8))
        exit(1)
    }
}

// A retrain frees and allocates a few hundred kilobytes per user on each worker thread: keep them mapped.
AllocatorTuning.keepFreedMemory(environment: ProcessInfo.processInfo.environment)

let status = await runPipeline(
    arguments: arguments,
    environment: ProcessInfo.processInfo.environment,
    io: .standard())
exit(status)
