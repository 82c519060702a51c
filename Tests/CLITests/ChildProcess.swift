import CSpawn
import Domain
import Foundation
import Glibc
import TestSupport

/// The built `pipeline` running as a child process, with its standard error watched as it arrives. It has
/// ended once it exited and its standard error reached its end: the exit is reported on another thread than
/// the output, and may come first, with the last lines still in the pipe.
///
/// The child holds its standard input, output and error and nothing else, and no other process holds its
/// pipes: they are made close-on-exec, this process's copies of the child's ends are closed as soon as it is
/// started, and every other descriptor is closed in the child. A process that another test starts meanwhile
/// would otherwise hold the write end of this child's input (a browser started with `posix_spawn` inherits
/// whatever is not close-on-exec, and Foundation's `Process` closes only the descriptors it saw open a moment
/// before), and the child would see the end of its input only when that process ended. Its exit is awaited with
/// `waitpid` on a thread of its own and its standard error read to the end on another, so neither depends on
/// a notice another process can hold up, as Foundation's `Process` does: it learns of an exit when every copy
/// of a socket it hands the child is closed.
final class ChildProcess: Sendable {
    enum Ending: Equatable {
        case exit(Int32)
        case signal(Int32)
    }

    /// A system call that failed: starting the child, or writing its input.
    struct CallFailure: Error, CustomStringConvertible {
        let description: String

        /// The failure of `call`, from its error number.
        init(_ call: String, _ number: Int32) {
            description = "\(call): \(String(cString: strerror(number)))"
        }
    }

    private struct State {
        var error = Data()
        var ending: Ending?
        /// Whether standard error reached its end.
        var isErrorClosed = false
        var outputWaiters: [(marker: String, continuation: CheckedContinuation<Bool, Never>)] = []
        var exitWaiters: [CheckedContinuation<Ending, Never>] = []
        /// Standard error text at which the child is stopped (SIGSTOP), as soon as it is read.
        var stopMarker: String?

        /// How the child ended, once it exited and its whole standard error was read.
        var end: Ending? { isErrorClosed ? ending : nil }
    }

    private let state: Locked<State>
    /// The child's process ID.
    let identifier: pid_t
    /// The write end of the child's standard input while the test feeds it (`start(…, feedsInput: true)`), until
    /// `closeInput()`.
    private let input: Locked<Int32?>

    private init(identifier: pid_t, input: Int32?, stopMarker: String?) {
        self.identifier = identifier
        self.input = Locked(input)
        state = Locked(State(stopMarker: stopMarker))
    }

    /// Starts the built `pipeline` with `arguments` and exactly `environment`. With `stopOnOutput`,
    /// the child is stopped with SIGSTOP the moment its standard error shows that text — from the
    /// thread that reads the pipe, so a busy test runner cannot let it run on meanwhile. With
    /// `feedsInput`, its standard input is a pipe the test writes with `send(_:)` and closes with
    /// `closeInput()`; otherwise it is empty.
    static func start(
        _ arguments: [String], environment: [String: String], stopOnOutput: String? = nil, feedsInput: Bool = false
    ) throws -> ChildProcess {
        // A write to the input of a child that has died must fail, not kill the test runner.
        if feedsInput { signal(SIGPIPE, SIG_IGN) }
        let executable = try pipelineBinary().path
        let errorPipe = try Self.pipe()
        var inputPipe: (read: Int32, write: Int32)?
        let identifier: pid_t
        do {
            if feedsInput { inputPipe = try Self.pipe() }
            identifier = try Self.spawn(
                [executable] + arguments, environment: environment, input: inputPipe?.read, error: errorPipe.write)
        } catch {
            for end in [errorPipe.read, errorPipe.write, inputPipe?.read, inputPipe?.write] {
                if let end { close(end) }
            }
            throw error
        }
        // The child's ends are the child's alone from here.
        close(errorPipe.write)
        if let inputPipe { close(inputPipe.read) }
        let child = ChildProcess(identifier: identifier, input: inputPipe?.write, stopMarker: stopOnOutput)
        child.watch(error: errorPipe.read)
        return child
    }

    /// A pipe whose ends are close-on-exec from the start.
    private static func pipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe2(&ends, O_CLOEXEC) == 0 else { throw CallFailure("pipe2", errno) }
        return (ends[0], ends[1])
    }

    /// Starts `arguments[0]` with `arguments` and exactly `environment`: standard input from `input` (empty
    /// without one), standard output discarded, standard error into `error`, every other descriptor closed. It
    /// starts with no signal blocked, in a process group of its own, as Foundation's `Process` starts one.
    private static func spawn(
        _ arguments: [String], environment: [String: String], input: Int32?, error: Int32
    ) throws -> pid_t {
        func check(_ status: Int32, _ call: String) throws {
            guard status == 0 else { throw CallFailure(call, status) }
        }
        var actions = posix_spawn_file_actions_t()
        try check(posix_spawn_file_actions_init(&actions), "posix_spawn_file_actions_init")
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            try check(
                posix_spawn_file_actions_adddup2(&actions, input, STDIN_FILENO), "posix_spawn_file_actions_adddup2")
        } else {
            try check(
                posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0),
                "posix_spawn_file_actions_addopen")
        }
        try check(
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0),
            "posix_spawn_file_actions_addopen")
        try check(posix_spawn_file_actions_adddup2(&actions, error, STDERR_FILENO), "posix_spawn_file_actions_adddup2")
        try check(
            posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1),
            "posix_spawn_file_actions_addclosefrom_np")
        var attributes = posix_spawnattr_t()
        try check(posix_spawnattr_init(&attributes), "posix_spawnattr_init")
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        try check(posix_spawnattr_setsigmask(&attributes, &noSignals), "posix_spawnattr_setsigmask")
        try check(posix_spawnattr_setpgroup(&attributes, 0), "posix_spawnattr_setpgroup")
        try check(
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK)),
            "posix_spawnattr_setflags")
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for string in argv + envp { free(string) } }
        var identifier: pid_t = 0
        try check(posix_spawn(&identifier, arguments[0], &actions, &attributes, argv, envp), "posix_spawn")
        return identifier
    }

    /// Reads standard error until its end and waits for the exit, each on a thread of its own: `read` returns 0
    /// once every write end is closed, and `waitpid` returns once the child has exited, whatever else runs.
    private func watch(error descriptor: Int32) {
        let reader = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
                if count < 0, errno == EINTR { continue }
                received(Data(buffer[..<max(count, 0)]))
                if count <= 0 { break }
            }
            close(descriptor)
        }
        reader.name = "pipeline-child-stderr"
        reader.start()
        let waiter = Thread { [self] in
            var status: Int32 = 0
            var result: pid_t
            repeat {
                result = waitpid(identifier, &status, 0)
            } while result < 0 && errno == EINTR
            precondition(result == identifier, "waitpid: \(String(cString: strerror(errno)))")
            // The wait status as <sys/wait.h> lays it out (its W* macros are not imported): the low seven bits
            // are the signal that ended the process, 0 if it exited, and the next eight its exit status.
            let signal = status & 0x7F
            ended(signal == 0 ? .exit((status >> 8) & 0xFF) : .signal(signal))
        }
        waiter.name = "pipeline-child-wait"
        waiter.start()
    }

    /// Writes `text` to the child's standard input; while the pipe is full, waits for the child to read.
    func send(_ text: String) throws {
        try input.withLock { (open: inout Int32?) throws(CallFailure) in
            guard let descriptor = open else {
                preconditionFailure("send(_:) needs a child started with feedsInput, not closed")
            }
            let bytes = Array(text.utf8)
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { throw CallFailure("write", errno) }
                written += count
            }
        }
    }

    /// Closes the child's standard input: the end of its input.
    func closeInput() {
        input.withLock { descriptor in
            if let open = descriptor { close(open) }
            descriptor = nil
        }
    }

    private func received(_ data: Data) {
        let ready = state.withLock { state in
            if data.isEmpty { state.isErrorClosed = true }
            state.error.append(data)
            let text = String(decoding: state.error, as: UTF8.self)
            if let marker = state.stopMarker, text.contains(marker) {
                kill(identifier, SIGSTOP)
                state.stopMarker = nil
            }
            let ready = state.outputWaiters.filter { text.contains($0.marker) }
            state.outputWaiters.removeAll { text.contains($0.marker) }
            return ready.map(\.continuation)
        }
        for continuation in ready { continuation.resume(returning: true) }
        if data.isEmpty { finishIfEnded() }
    }

    private func ended(_ ending: Ending) {
        state.withLock { $0.ending = ending }
        finishIfEnded()
    }

    /// Wakes every waiter once the child has ended (`State.end`).
    private func finishIfEnded() {
        let (outputWaiters, exitWaiters, end) = state.withLock {
            state -> ([CheckedContinuation<Bool, Never>], [CheckedContinuation<Ending, Never>], Ending?) in
            guard let end = state.end else { return ([], [], nil) }
            defer {
                state.outputWaiters = []
                state.exitWaiters = []
            }
            return (state.outputWaiters.map(\.continuation), state.exitWaiters, end)
        }
        guard let end else { return }
        for waiter in outputWaiters { waiter.resume(returning: false) }
        for waiter in exitWaiters { waiter.resume(returning: end) }
    }

    /// Waits until standard error contains `marker` (`true`), or the process ended without it.
    /// Cancelled (a test past its time limit), it kills the child, which ends the wait.
    func waitForOutput(containing marker: String) async -> Bool {
        await withTaskCancellationHandler {
            await waitForOutputUncancelled(containing: marker)
        } onCancel: {
            kill(identifier, SIGKILL)
        }
    }

    private func waitForOutputUncancelled(containing marker: String) async -> Bool {
        await withCheckedContinuation { continuation in
            let answer: Bool? = state.withLock { state in
                if String(decoding: state.error, as: UTF8.self).contains(marker) { return true }
                if state.end != nil { return false }
                state.outputWaiters.append((marker, continuation))
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Waits until the child ends, its standard error read to the end. Cancelled (a test past its time limit), it
    /// kills the child.
    func waitForExit() async -> Ending {
        await withTaskCancellationHandler {
            await waitForExitUncancelled()
        } onCancel: {
            kill(identifier, SIGKILL)
        }
    }

    private func waitForExitUncancelled() async -> Ending {
        await withCheckedContinuation { continuation in
            let ending: Ending? = state.withLock { state in
                if let end = state.end { return end }
                state.exitWaiters.append(continuation)
                return nil
            }
            if let ending { continuation.resume(returning: ending) }
        }
    }

    var errorOutput: String {
        state.withLock { String(decoding: $0.error, as: UTF8.self) }
    }
}
