/// How a `pipeline` run ended, as the process exit status (DESIGN §7).
///
/// The non-zero codes follow BSD `sysexits(3)` so cron wrappers and shell scripts can tell a
/// mistake in the command line from bad input and from "try again later":
/// https://man.freebsd.org/cgi/man.cgi?query=sysexits
enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Everything asked for was done.
    case ok = 0
    /// The run failed for a reason that is neither the command line nor the input.
    case failure = 1
    /// The command line was wrong: unknown option, missing value, bad integer (`EX_USAGE`).
    case usage = 64
    /// The input was malformed or broke a domain rule (`EX_DATAERR`).
    case dataError = 65
    /// The database could not be written: the disk is full or failing (`EX_IOERR`).
    case ioError = 74
    /// Nothing could run now (a lease is held, a condition is not met); retrying later may work
    /// (`EX_TEMPFAIL`).
    case temporaryFailure = 75
    /// Something is set up wrong and will stay wrong until a person changes it: a password, a role or a
    /// database the server refuses, a path that names no pipeline database (`EX_CONFIG`).
    case configuration = 78
}
