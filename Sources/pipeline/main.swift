import Foundation
import PipelineCLI

let status = await runPipeline(
    arguments: Array(CommandLine.arguments.dropFirst()),
    environment: ProcessInfo.processInfo.environment,
    io: .standard())
exit(status)
