import CSpawn
import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Debian's Chromium, headless, driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`:
/// the browser reads commands on fd 3 and writes replies and events on fd 4, each a JSON message
/// ended by a NUL byte; https://chromedevtools.github.io/devtools-protocol/).
///
/// The protocol, unlike `--screenshot`, reports what a user of the page would miss: console errors,
/// exceptions, requests that failed and requests that left the machine. Every read waits with
/// `poll(2)` against one deadline, so a browser that hangs fails the test instead of holding it.
/// Chromium that is missing or cannot start is an error: the test fails, it never skips.
final class HeadlessChromium {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// What one page did while it loaded, and what was asked of it afterwards.
    struct PageVisit {
        /// Console errors, exceptions, failed requests, requests to anything but a local file.
        var problems: [String]
        var png: Data
        /// The first screenful only.
        var viewportPNG: Data
        /// The value of the expression evaluated after the load.
        var evaluated: Any?
    }

    private let pid: pid_t
    private let commands: Int32
    private let replies: Int32
    private let deadline: ContinuousClock.Instant
    private let profile = TemporaryDirectory("chromium-profile")
    private var buffer: [UInt8] = []
    private var nextID = 0
    private var pending: [[String: Any]] = []
    private var exited = false

    /// The executable: `PIPELINE_CHROMIUM`, else `chromium` on PATH (Debian's package).
    static func executable() throws -> String {
        if let path = ProcessInfo.processInfo.environment["PIPELINE_CHROMIUM"] { return path }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where access("\(folder)/chromium", X_OK) == 0 {
            return "\(folder)/chromium"
        }
        throw Failure(
            description: "chromium is not installed: scripts/test.sh installs Debian's chromium package "
                + "(apt-get install -y chromium)")
    }

    /// Starts the browser; everything must be done within `timeout`.
    init(timeout: Duration) throws {
        deadline = ContinuousClock.now + timeout
        let path = try Self.executable()
        var toBrowser: [Int32] = [0, 0]
        var fromBrowser: [Int32] = [0, 0]
        guard pipe(&toBrowser) == 0, pipe(&fromBrowser) == 0 else {
            throw Failure(description: "pipe: \(String(cString: strerror(errno)))")
        }
        // Our ends must not leak into the browser.
        _ = fcntl(toBrowser[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fromBrowser[0], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toBrowser[0], 3)
        posix_spawn_file_actions_adddup2(&actions, fromBrowser[1], 4)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, profile.path("stderr.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // Nothing else of this process: a browser that held another test's pipe would keep it from its end.
        posix_spawn_file_actions_addclosefrom_np(&actions, 5)
        let arguments = [
            path, "--headless", "--disable-gpu", "--remote-debugging-pipe",
            "--user-data-dir=\(profile.path("data"))", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--hide-scrollbars", "--mute-audio",
        ]
        // As root (CI), Chromium refuses to start without this.
        let all = (getuid() == 0 ? arguments + ["--no-sandbox"] : arguments) + ["about:blank"]
        var argv: [UnsafeMutablePointer<CChar>?] = all.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, path, &actions, nil, &argv, environ)
        close(toBrowser[0])
        close(fromBrowser[1])
        guard status == 0 else {
            close(toBrowser[1])
            close(fromBrowser[0])
            throw Failure(description: "chromium could not be started: \(String(cString: strerror(status)))")
        }
        pid = child
        commands = toBrowser[1]
        replies = fromBrowser[0]
        // A broken pipe must be an error on write, not a signal that kills the test process.
        signal(SIGPIPE, SIG_IGN)
    }

    deinit {
        close(commands)
        close(replies)
        if !exited {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    /// The last lines Chromium wrote on stderr, for a failure message.
    var stderrTail: String {
        let text = (try? String(contentsOfFile: profile.path("stderr.txt"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.contains("dbus") }.suffix(8).joined(separator: "\n")
    }

    /// Loads `url` in a new tab with JavaScript off and a `width` × `height` window, then evaluates
    /// `expression` (the DevTools protocol still evaluates with page scripts disabled) and takes a
    /// full-page screenshot.
    func visit(_ url: URL, width: Int, height: Int, javaScript: Bool = false, evaluate expression: String)
        throws -> PageVisit
    {
        let target = try call("Target.createTarget", ["url": "about:blank"])
        guard let targetID = target["targetId"] as? String else { throw Failure(description: "no target id") }
        let attached = try call("Target.attachToTarget", ["targetId": targetID, "flatten": true])
        guard let session = attached["sessionId"] as? String else { throw Failure(description: "no session id") }
        for domain in ["Page", "Runtime", "Log", "Network"] { _ = try call("\(domain).enable", [:], session: session) }
        _ = try call("Emulation.setScriptExecutionDisabled", ["value": !javaScript], session: session)
        _ = try call(
            "Emulation.setDeviceMetricsOverride",
            ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": false], session: session)
        pending.removeAll()
        let navigation = try call("Page.navigate", ["url": url.absoluteString], session: session)
        var problems: [String] = []
        if let error = navigation["errorText"] as? String { problems.append("navigation failed: \(error)") }
        var events = try waitFor("Page.loadEventFired", session: session)
        let value = try call(
            "Runtime.evaluate", ["expression": expression, "returnByValue": true], session: session)
        let shot = try call(
            "Page.captureScreenshot", ["format": "png", "captureBeyondViewport": true], session: session)
        let viewport = try call("Page.captureScreenshot", ["format": "png"], session: session)
        // Events that arrived while the last commands ran count too.
        events += pending.filter { $0["sessionId"] as? String == session }
        pending.removeAll()
        problems += events.compactMap(Self.problem)
        _ = try call("Target.closeTarget", ["targetId": targetID])
        guard let base64 = shot["data"] as? String, let png = Data(base64Encoded: base64),
            let first = viewport["data"] as? String, let viewportPNG = Data(base64Encoded: first)
        else {
            throw Failure(description: "no screenshot")
        }
        if let exception = value["exceptionDetails"] { problems.append("the check threw: \(exception)") }
        return PageVisit(
            problems: problems, png: png, viewportPNG: viewportPNG,
            evaluated: (value["result"] as? [String: Any])?["value"])
    }

    /// Closes the browser and waits for it to exit.
    func shutDown() throws {
        _ = try call("Browser.close", [:])
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        exited = true
    }

    /// What a user would see go wrong, from one protocol event; `nil` for an event that is fine.
    static func problem(_ event: [String: Any]) -> String? {
        let params = event["params"] as? [String: Any] ?? [:]
        switch event["method"] as? String {
        case "Runtime.consoleAPICalled":
            guard let type = params["type"] as? String, ["error", "assert"].contains(type) else { return nil }
            let args = (params["args"] as? [[String: Any]] ?? []).map { "\($0["value"] ?? $0["description"] ?? "")" }
            return "console \(type): \(args.joined(separator: " "))"
        case "Runtime.exceptionThrown":
            let details = params["exceptionDetails"] as? [String: Any] ?? [:]
            return "exception: \(details["text"] ?? "")"
        case "Log.entryAdded":
            let entry = params["entry"] as? [String: Any] ?? [:]
            guard entry["level"] as? String == "error" else { return nil }
            return "log error: \(entry["text"] ?? "") \(entry["url"] ?? "")"
        case "Network.loadingFailed":
            return "request failed: \(params["errorText"] ?? "") (\(params["type"] ?? ""))"
        case "Network.requestWillBeSent":
            let request = params["request"] as? [String: Any] ?? [:]
            let url = request["url"] as? String ?? ""
            return url.hasPrefix("file://") || url.hasPrefix("data:") ? nil : "request to \(url)"
        default:
            return nil
        }
    }

    // MARK: - The protocol

    private func call(_ method: String, _ params: [String: Any], session: String? = nil) throws -> [String: Any] {
        nextID += 1
        let id = nextID
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if let session { message["sessionId"] = session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(commands, $0.baseAddress! + offset, $0.count - offset) }
            guard written > 0 else {
                if written < 0 && errno == EINTR { continue }
                throw Failure(description: "chromium stopped reading commands (\(method))\n\(stderrTail)")
            }
            offset += written
        }
        while true {
            let reply = try receive(waitingFor: method)
            guard reply["id"] as? Int == id else {
                pending.append(reply)
                continue
            }
            if let error = reply["error"] as? [String: Any] {
                throw Failure(description: "\(method) failed: \(error["message"] ?? error)")
            }
            return reply["result"] as? [String: Any] ?? [:]
        }
    }

    /// Events up to and including the first `method` of `session`.
    private func waitFor(_ method: String, session: String) throws -> [[String: Any]] {
        var events = pending.filter { $0["sessionId"] as? String == session }
        pending.removeAll()
        if events.contains(where: { $0["method"] as? String == method }) { return events }
        while true {
            let event = try receive(waitingFor: method)
            if event["sessionId"] as? String == session { events.append(event) }
            if event["method"] as? String == method && event["sessionId"] as? String == session { return events }
        }
    }

    private func receive(waitingFor what: String) throws -> [String: Any] {
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let message = Data(buffer[..<end])
                buffer.removeSubrange(...end)
                guard let object = try JSONSerialization.jsonObject(with: message) as? [String: Any] else {
                    throw Failure(description: "chromium sent a message that is not a JSON object")
                }
                return object
            }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else {
                throw Failure(description: "chromium did not answer in time (waiting for \(what))\n\(stderrTail)")
            }
            let milliseconds =
                remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
            var descriptor = pollfd(fd: replies, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(milliseconds + 1, Int64(Int32.max))))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(replies, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw Failure(description: "chromium exited (waiting for \(what))\n\(stderrTail)")
            }
            buffer += chunk[..<count]
        }
    }
}
