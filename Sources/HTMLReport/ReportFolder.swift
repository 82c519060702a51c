import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The folder a report is written to. Every file holds health data, so the folder is created
/// `0700` and every file `0600` whatever the umask; a file is written to a temporary name and renamed
/// over the old one, so a reader (or a crash) never sees half a page and an existing page that was
/// readable by others is replaced, not reused.
struct ReportFolder: Sendable {
    let path: String

    /// Creates `path` (and `path/users`) when missing; an existing folder keeps its mode.
    init(path: String) throws(ReportError) {
        self.path = path
        for folder in [path, path + "/users"] {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
                guard isDirectory.boolValue else { throw .output(path: folder, problem: "it is not a folder") }
                continue
            }
            guard mkdir(folder, 0o700) == 0 || errno == EEXIST else {
                throw .output(path: folder, problem: String(cString: strerror(errno)))
            }
        }
    }

    /// Writes `text` to `relative` (e.g. `users/alice.html`) with mode 0600.
    func write(_ text: String, to relative: String) throws(ReportError) {
        let target = path + "/" + relative
        let temporary = target + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .output(path: target, problem: String(cString: strerror(errno))) }
        var failure: Int32 = 0
        // The umask cannot widen 0600, but a temporary file left by a crashed run may exist with
        // another mode: O_TRUNC keeps its mode, so set it.
        if fchmod(descriptor, 0o600) != 0 { failure = errno }
        let bytes = Array(text.utf8)
        var offset = 0
        while failure == 0 && offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                failure = errno
            } else {
                offset += written
            }
        }
        if close(descriptor) != 0 && failure == 0 { failure = errno }
        if failure == 0 && rename(temporary, target) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            throw .output(path: target, problem: String(cString: strerror(failure)))
        }
    }
}
