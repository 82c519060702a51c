import Domain
import Foundation
import Glibc
import TestSupport

/// The built `pipeline` running as a child process, with its standard error watched as it arrives. It has
/// ended once it exited and its standard error reached its end: the exit is reported on another thread than
/// the output, and may come first, with the last lines still in the pipe.
final class ChildProcess: Sendable {
    enum Ending: Equatable {
        case exit(Int32)
        case signal(Int32)
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

    private let state = Locked(State())
    private let process: Process
    private let pipe = Pipe()
    /// The child's standard input, when the test feeds it (`start(…, feedsInput: true)`).
    private let input: Pipe?

    private init(_ arguments: [String], environment: [String: String], feedsInput: Bool) throws {
        process = Process()
        process.executableURL = try pipelineBinary()
        process.arguments = arguments
        process.environment = environment
        input = feedsInput ? Pipe() : nil
        process.standardInput = input ?? FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = pipe
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
        let child = try ChildProcess(arguments, environment: environment, feedsInput: feedsInput)
        child.state.withLock { $0.stopMarker = stopOnOutput }
        child.pipe.fileHandleForReading.readabilityHandler = { [child] handle in
            child.received(handle.availableData, from: handle)
        }
        child.process.terminationHandler = { [child] process in
            child.ended(
                process.terminationReason == .uncaughtSignal
                    ? .signal(process.terminationStatus) : .exit(process.terminationStatus))
        }
        try child.process.run()
        return child
    }

    var identifier: Int32 { process.processIdentifier }

    /// Writes `text` to the child's standard input.
    func send(_ text: String) throws {
        try input?.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    /// Closes the child's standard input: the end of its input.
    func closeInput() throws {
        try input?.fileHandleForWriting.close()
    }

    private func received(_ data: Data, from handle: FileHandle) {
        let ready = state.withLock { state in
            if data.isEmpty { state.isErrorClosed = true }
            state.error.append(data)
            let text = String(decoding: state.error, as: UTF8.self)
            if let marker = state.stopMarker, text.contains(marker) {
                kill(process.processIdentifier, SIGSTOP)
                state.stopMarker = nil
            }
            let ready = state.outputWaiters.filter { text.contains($0.marker) }
            state.outputWaiters.removeAll { text.contains($0.marker) }
            return ready.map(\.continuation)
        }
        for continuation in ready { continuation.resume(returning: true) }
        if data.isEmpty {
            handle.readabilityHandler = nil
            finishIfEnded()
        }
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
            kill(process.processIdentifier, SIGKILL)
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
            kill(process.processIdentifier, SIGKILL)
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
