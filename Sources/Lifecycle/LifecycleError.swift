public import PipelineKit

/// What can stop a device simulation. The state machine and the scenarios cannot fail.
public enum LifecycleError: Error, Sendable, CustomStringConvertible {
    /// A simulated app's database failed.
    case pipeline(PipelineError)
    /// The temporary folder for the simulated apps' databases could not be made.
    case temporaryFolder(path: String, reason: String)

    public var description: String {
        switch self {
        case .pipeline(let error):
            "a simulated app's database failed: \(error)"
        case .temporaryFolder(let path, let reason):
            "cannot create the simulation's temporary folder \(path): \(reason); check that TMPDIR is writable"
        }
    }
}
