import Foundation
import Learning
import PipelineCLI
import PipelineKit

// Before anything else: a CPU that OpenBLAS does not recognize gets its slowest kernels unless the process
// starts with OPENBLAS_CORETYPE set, so such a process starts again with it set (see BLASKernels).
BLASKernels.relaunchWithRecognizedKernels(
    arguments: CommandLine.arguments, environment: ProcessInfo.processInfo.environment)

// A retrain frees and allocates a few hundred kilobytes per user on each worker thread: keep them mapped.
AllocatorTuning.keepFreedMemory(environment: ProcessInfo.processInfo.environment)

let status = await runPipeline(
    arguments: Array(CommandLine.arguments.dropFirst()),
    environment: ProcessInfo.processInfo.environment,
    io: .standard())
exit(status)
