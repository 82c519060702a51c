import Foundation
import Learning
import PipelineCLI

// Before anything else: a CPU that OpenBLAS does not recognize gets its slowest kernels unless the process
// starts with OPENBLAS_CORETYPE set, so such a process starts again with it set (see BLASKernels).
BLASKernels.relaunchWithRecognizedKernels(
    arguments: CommandLine.arguments, environment: ProcessInfo.processInfo.environment)

let status = await runPipeline(
    arguments: Array(CommandLine.arguments.dropFirst()),
    environment: ProcessInfo.processInfo.environment,
    io: .standard())
exit(status)
