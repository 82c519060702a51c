#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Swift files and `Info.plist` files under the paths given to an audit, found with POSIX directory calls
/// (FileManager's enumerator costs a stat and several allocations per entry, which dominates on large trees).
struct SourceTree {
    var swiftFiles: [String] = []
    var propertyLists: [String] = []
    /// Other `.plist` files met while walking (`InfoPlists/App.plist`): each is read as an `Info.plist` when it says
    /// it is one (`Auditor` looks for a `CFBundleIdentifier` key), whatever its name.
    var otherPropertyLists: [String] = []
    /// Files named explicitly that are neither Swift nor a property list, unreadable directories met on the way, and
    /// dependency or build folders (`Pods/` …) left out.
    var skipped: [SkippedFile] = []
    /// Files named in the paths themselves (not found by walking): failing to read one is an error.
    var named: Set<String> = []
    /// Directories named in the paths themselves, walked from there.
    var roots: [String] = []
    /// Source files in languages the audit does not parse (Objective-C, JavaScript, TypeScript, Kotlin, Java,
    /// Dart), where an app may register its tasks: listed, and read only to look for a task identifier.
    var otherSources: [String] = []
    /// Project manifests a build tool turns into the Xcode project and its `Info.plist` (XcodeGen's `project.yml`, a
    /// Cordova plugin's `plugin.xml`), and pods' specs: read only to see whether they write the permitted task
    /// identifiers or the background modes.
    var manifests: [String] = []
    /// READMEs, setup guides and other pages (`README.md`, `INSTALL.md`, `docs/SETUP.md`, `INFO_PLIST.md`; not a
    /// changelog, licence or contributing guide): read only to see whether a library tells the app that embeds it
    /// which background mode to turn on.
    var documents: [String] = []
    /// Xcode projects' `project.pbxproj` files: which Swift files in a project's folder its targets compile.
    var projects: [String] = []
    /// Xcode workspaces' `contents.xcworkspacedata` files (outside a project, whose own workspace lists only itself):
    /// the projects a workspace lists are built together.
    var workspaces: [String] = []
    /// Folders holding a `Package.swift` or a `.podspec`: their sources are built by the package, whatever an Xcode
    /// project around them lists.
    var packageFolders: [String] = []
    /// Of `packageFolders`, those holding a `.podspec`, whose every file the pod may build.
    var podFolders: [String] = []

    static let otherSourceSuffixes = [".m", ".mm", ".js", ".jsx", ".ts", ".tsx", ".kt", ".java", ".dart"]

    /// Directories that hold build products or other projects' code, not the app's own sources, and why each is
    /// left out (the report names every one it met).
    static let ignoredDirectories: [String: String] = [
        "Pods": "CocoaPods dependencies, not the app's own code",
        "Carthage": "Carthage dependencies, not the app's own code",
        "DerivedData": "Xcode build products",
        "node_modules": "JavaScript packages, not the app's own code",
    ]

    /// Walks `paths` in the order given; entries of a directory in byte order. A directory named in `paths` is
    /// always walked; below it, hidden directories and `ignoredDirectories` are not, nor are symbolic links to
    /// directories (they can form cycles), nor symbolic links to files the same walk reads where they are (a
    /// `macos/Sources` of links to `ios/Sources` would make every declaration and registration a duplicate).
    static func find(_ paths: [String]) throws(AuditError) -> SourceTree {
        guard !paths.isEmpty else { throw .noPaths }
        var tree = SourceTree()
        for path in paths {
            var status = stat()
            guard stat(path, &status) == 0 else {
                if errno == ENOENT || errno == ENOTDIR { throw .pathNotFound(path) }
                throw .unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if status.st_mode & S_IFMT == S_IFDIR {
                guard let directory = opendir(path) else {
                    throw .unreadable(path: path, reason: String(cString: strerror(errno)))
                }
                closedir(directory)
                tree.roots.append(path)
                tree.walk(directory: path, root: resolved(path))
            } else if status.st_mode & S_IFMT != S_IFREG {
                // Opening a FIFO or a device would block or read without end.
                throw .unreadable(path: path, reason: "not a regular file")
            } else if isSwift(path) {
                tree.swiftFiles.append(path)
                tree.named.insert(path)
            } else if isPropertyList(path) {
                tree.propertyLists.append(path)
                tree.named.insert(path)
            } else {
                tree.skipped.append(SkippedFile(file: path, reason: "not a Swift file or Info.plist"))
            }
        }
        return tree
    }

    static func isSwift(_ path: String) -> Bool { path.hasSuffix(".swift") }
    static func isPropertyList(_ path: String) -> Bool { path.hasSuffix("Info.plist") }

    /// `path` with every symbolic link and `.`/`..` resolved, or `nil`.
    private static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// Whether the file a symbolic link at `link` leads to is one the walk from `root` (resolved) reads at its own
    /// path: inside `root`, and in no hidden or ignored directory below it.
    private static func isWalked(target link: String, root: String?) -> Bool {
        guard let root, let target = resolved(link), target.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
            return false
        }
        let folders = target.dropFirst(root.count).split(separator: "/").dropLast()
        return !folders.contains { $0.hasPrefix(".") || ignoredDirectories[String($0)] != nil }
    }

    private mutating func walk(directory: String, root: String?) {
        guard let handle = opendir(directory) else {
            skipped.append(SkippedFile(file: directory, reason: String(cString: strerror(errno))))
            return
        }
        var entries: [(name: String, type: UInt8)] = []
        while let entry = readdir(handle) {
            // Read in place: a record is only as long as its name, so copying the whole `d_name` array out of the
            // last record of readdir's buffer can read past the buffer's end (a segmentation fault on one tree).
            guard let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) else { continue }
            let name = String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
            if name == "." || name == ".." { continue }
            entries.append((name, entry.pointee.d_type))
        }
        closedir(handle)
        entries.sort { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        for entry in entries {
            let path = prefix + entry.name
            var type = entry.type
            if type == UInt8(DT_UNKNOWN) || type == UInt8(DT_LNK) {
                var status = stat()
                if lstat(path, &status) != 0 { continue }
                let isLink = status.st_mode & S_IFMT == S_IFLNK
                if isLink, stat(path, &status) != 0 { continue }
                let isDirectory = status.st_mode & S_IFMT == S_IFDIR
                if isLink, isDirectory { continue }
                let isRegular = status.st_mode & S_IFMT == S_IFREG
                if isLink, isRegular, Self.isWalked(target: path, root: root) { continue }
                type = isDirectory ? UInt8(DT_DIR) : isRegular ? UInt8(DT_REG) : UInt8(DT_UNKNOWN)
            }
            if type == UInt8(DT_DIR) {
                if entry.name.hasPrefix(".") { continue }
                if let reason = Self.ignoredDirectories[entry.name] {
                    skipped.append(SkippedFile(file: path + "/", reason: reason))
                    continue
                }
                walk(directory: path, root: root)
            } else if type != UInt8(DT_REG) {
                continue
            } else if Self.isSwift(entry.name) {
                swiftFiles.append(path)
                if entry.name == "Package.swift" { packageFolders.append(directory) }
            } else if Self.isPropertyList(entry.name) {
                propertyLists.append(path)
            } else if entry.name.hasSuffix(".plist") {
                otherPropertyLists.append(path)
            } else if Self.otherSourceSuffixes.contains(where: { entry.name.hasSuffix($0) }) {
                otherSources.append(path)
            } else if entry.name.hasSuffix(".yml") || entry.name.hasSuffix(".yaml") || entry.name == "plugin.xml" {
                manifests.append(path)
            } else if entry.name.hasSuffix(".md"), Self.isSetupDocument(entry.name) {
                documents.append(path)
            } else if entry.name == "project.pbxproj" {
                projects.append(path)
            } else if entry.name == "contents.xcworkspacedata", directory.hasSuffix(".xcworkspace"),
                !directory.hasSuffix(".xcodeproj/project.xcworkspace")
            {
                workspaces.append(path)
            } else if entry.name.hasSuffix(".podspec") || entry.name.hasSuffix(".podspec.json") {
                packageFolders.append(directory)
                podFolders.append(directory)
                manifests.append(path)
            }
        }
    }

    /// Whether the Markdown file `name` may tell how to set a library up: a README, an installation or setup guide, a
    /// page of a `docs` folder, a page on the app's `Info.plist` (`INFO_PLIST.md`) — any page but those that name what
    /// changed, the licence, or how to contribute.
    private static func isSetupDocument(_ name: String) -> Bool {
        let lowercased = name.lowercased()
        return ![
            "changelog", "changes", "history", "release", "license", "licence", "contributing", "code_of_conduct",
            "code-of-conduct", "security", "authors", "pull_request_template", "issue_template",
        ].contains(where: lowercased.hasPrefix)
    }

    /// The bytes of the file at `path`.
    static func read(_ path: String) -> Result<[UInt8], ReadFailure> {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return .failure(ReadFailure(reason: String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            return .failure(ReadFailure(reason: String(cString: strerror(errno))))
        }
        var bytes = [UInt8](repeating: 0, count: max(Int(status.st_size), 0))
        var filled = 0
        while true {
            if filled == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(4096, bytes.count))) }
            let count = bytes.withUnsafeMutableBytes { buffer in
                systemRead(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(ReadFailure(reason: String(cString: strerror(errno))))
            }
            if count == 0 { break }
            filled += count
        }
        bytes.removeLast(bytes.count - filled)
        return .success(bytes)
    }
}

#if canImport(Glibc)
    private let systemRead = Glibc.read
#elseif canImport(Darwin)
    private let systemRead = Darwin.read
#endif

extension SourceTree {
    /// The folders of the tree whose files a package or a pod builds: a pod's whole folder; a Swift package's
    /// target folders (`Sources/…`, `Tests/…`, and each `path:` its manifest names). A file beside them, in a backup
    /// folder a package's folder also holds, is built by no package.
    func packageSourceFolders() -> [String] {
        var folders = podFolders
        for folder in packageFolders where !podFolders.contains(folder) {
            guard case .success(let bytes) = Self.read(folder + "/Package.swift") else {
                folders.append(folder)
                continue
            }
            folders += ["Sources", "Source", "src", "srcs", "Tests", "Plugins"].map { folder + "/" + $0 }
            // Spelled as the walk spells the tree's files (`./Growth`), which the folders are compared with.
            folders += Self.manifestPaths(bytes).map { path in
                var path = Substring(path)
                while path.hasPrefix("./") { path = path.dropFirst(2) }
                while path.hasSuffix("/") { path = path.dropLast() }
                return path.isEmpty || path == "." ? folder : folder + "/" + path
            }
        }
        return folders
    }

    /// The strings written after `path:` in a package manifest (a target's folder, a local package's).
    static func manifestPaths(_ bytes: [UInt8]) -> [String] {
        let key = Array("path:".utf8)
        var paths: [String] = []
        var index = 0
        while index + key.count < bytes.count {
            guard bytes[index..<(index + key.count)].elementsEqual(key) else {
                index += 1
                continue
            }
            var start = index + key.count
            while start < bytes.count, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\n") {
                start += 1
            }
            guard start < bytes.count, bytes[start] == UInt8(ascii: "\""),
                let end = bytes[(start + 1)...].firstIndex(of: UInt8(ascii: "\""))
            else {
                index = start
                continue
            }
            paths.append(String(decoding: bytes[(start + 1)..<end], as: UTF8.self))
            index = end + 1
        }
        return paths
    }
}
