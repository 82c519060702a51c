/// The Swift files an Xcode project's targets compile, read from its `project.pbxproj`: a file in the project's folder
/// that no target compiles (a Finder copy, `Manager 2.swift`, or a folder left beside the app's) is never built, and
/// what it does never happens.
///
/// The file is an old-style property list: `{ key = value; }`, `( value, )`, strings bare or quoted, comments. A
/// target compiles the files its `PBXSourcesBuildPhase` lists, each a `PBXBuildFile` naming a `PBXFileReference`
/// whose path is relative to its group's (`<group>`), the project folder (`SOURCE_ROOT`) or absolute; and, since
/// Xcode 16, every file in a folder a `PBXFileSystemSynchronizedRootGroup` names.
struct XcodeProject: Sendable {
    /// The folder holding the `.xcodeproj`, which the project's paths start from.
    let directory: String
    /// The `.xcodeproj`'s name (`App.xcodeproj`).
    let name: String
    /// The paths of the files the targets compile, in lower case (the file systems Xcode runs on ignore case).
    private(set) var compiled: Set<String> = []
    /// Folders whose every file is compiled, in lower case.
    private(set) var compiledFolders: [String] = []
    /// The modules its targets build, as Swift spells them (`My_App` for a product named `My-App`).
    private(set) var modules: Set<String> = []
    /// The names of the other projects it references (`Library.xcodeproj`, a subproject whose products it links).
    private(set) var subprojects: Set<String> = []
    /// Of `compiled`, the files only app targets compile (an app, an extension): no other module imports them, so
    /// their `public` declarations are no more callable from outside than internal ones.
    private(set) var compiledByAppsOnly: Set<String> = []
    /// Of `compiledFolders`, those only app targets name.
    private var foldersOfAppsOnly: [String] = []
    /// The synchronized folders by their object's id, in lower case.
    private var synchronizedFolders: [String: String] = [:]
    /// The paths of the Info.plist files the app targets' build settings name (`INFOPLIST_FILE`); a value with a
    /// build variable other than the project's folder is left out.
    private(set) var appInfoPlists: Set<String> = []
    /// The paths of the Info.plist files any target's (or the project's) build settings name.
    private(set) var infoPlists: Set<String> = []
    /// Whether a target compiles a file by an absolute path outside the project's folder (a group at
    /// `/Users/name/…` on the author's machine): which of the tree's files that stands for cannot be told.
    private(set) var compilesFilesElsewhere = false
    /// Whether every `INFOPLIST_FILE` of the project could be read: none names a build variable, and no build
    /// configuration takes settings from an `.xcconfig` file, which may set one.
    private(set) var readsEveryInfoPlist = true

    /// Reads the `project.pbxproj` at `path` (inside `Name.xcodeproj`); `nil` when it is not one the reader follows.
    init?(path: String, bytes: [UInt8]) {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard components.count >= 2, components[components.count - 2].hasSuffix(".xcodeproj") else { return nil }
        directory = components.dropLast(2).joined(separator: "/")
        name = String(components[components.count - 2])
        var parser = Parser(bytes: bytes)
        guard case .dictionary(let root)? = parser.value(), case .dictionary(let objects)? = root["objects"],
            case .string(let rootID)? = root["rootObject"], case .dictionary(let project)? = objects[rootID],
            case .string(let mainGroup)? = project["mainGroup"]
        else { return nil }
        var paths: [String: String] = [:]
        var absolute: Set<String> = []
        resolve(mainGroup, under: directory, objects: objects, into: &paths, absolute: &absolute, depth: 0)
        infoPlists.formUnion(infoPlists(of: project, objects: objects))
        // The build phases of targets whose `public` declarations nothing outside can call: an app's, an extension's.
        var appPhases: Set<String> = []
        var appGroups: Set<String> = []
        var otherGroups: Set<String> = []
        for case .dictionary(let object) in objects.values {
            switch object["isa"] {
            case .string("PBXNativeTarget")?:
                if case .string(let product)? = object["productName"] ?? object["name"] {
                    modules.insert(String(product.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" }))
                }
                let isApp = object["productType"].map(Self.isAppProduct) ?? false
                let named = infoPlists(of: object, objects: objects)
                infoPlists.formUnion(named)
                if object["productType"] == .string("com.apple.product-type.application") {
                    appInfoPlists.formUnion(named)
                }
                if isApp, case .array(let phases)? = object["buildPhases"] {
                    for case .string(let phase) in phases { appPhases.insert(phase) }
                }
                if case .array(let groups)? = object["fileSystemSynchronizedGroups"] {
                    for case .string(let group) in groups {
                        if isApp { appGroups.insert(group) } else { otherGroups.insert(group) }
                    }
                }
            case .string("PBXFileReference")?:
                if case .string(let path)? = object["path"], path.hasSuffix(".xcodeproj") {
                    subprojects.insert(String(path.split(separator: "/").last ?? ""))
                }
            default: break
            }
        }
        var compiledByOthers: Set<String> = []
        for case (let id, .dictionary(let object)) in objects where object["isa"] == .string("PBXSourcesBuildPhase") {
            guard case .array(let files)? = object["files"] else { continue }
            for case .string(let buildFile) in files {
                guard case .dictionary(let build)? = objects[buildFile],
                    case .string(let reference)? = build["fileRef"],
                    let path = paths[reference]
                else { continue }
                compiled.insert(path.lowercased())
                if absolute.contains(reference), !path.hasPrefix(directory + "/") { compilesFilesElsewhere = true }
                if !appPhases.contains(id) { compiledByOthers.insert(path.lowercased()) }
            }
        }
        compiledByAppsOnly = compiled.subtracting(compiledByOthers)
        foldersOfAppsOnly = appGroups.subtracting(otherGroups).compactMap { synchronizedFolders[$0] }
    }

    /// The `INFOPLIST_FILE`s of `target`'s build configurations, as paths from the tree's root; one that cannot be
    /// read clears `readsEveryInfoPlist`.
    private mutating func infoPlists(of target: [String: Value], objects: [String: Value]) -> [String] {
        guard case .string(let listID)? = target["buildConfigurationList"],
            case .dictionary(let list)? = objects[listID],
            case .array(let configurations)? = list["buildConfigurations"]
        else { return [] }
        var plists: [String] = []
        for case .string(let id) in configurations {
            guard case .dictionary(let configuration)? = objects[id] else { continue }
            if case .string(let reference)? = configuration["baseConfigurationReference"],
                !Self.isCocoaPodsConfiguration(objects[reference])
            {
                readsEveryInfoPlist = false
            }
            guard case .dictionary(let settings)? = configuration["buildSettings"],
                case .string(var value)? = settings["INFOPLIST_FILE"]
            else { continue }
            for folder in ["$(SRCROOT)/", "${SRCROOT}/", "$(PROJECT_DIR)/", "${PROJECT_DIR}/"]
            where value.hasPrefix(folder) {
                value.removeFirst(folder.count)
            }
            guard !value.isEmpty, !value.contains("$"), !value.hasPrefix("/") else {
                readsEveryInfoPlist = false
                continue
            }
            plists.append(Self.normalized(directory.isEmpty ? value : directory + "/" + value))
        }
        return plists
    }

    /// Whether the file reference `object` is an `.xcconfig` CocoaPods writes for a target (`Pods-App.debug.xcconfig`),
    /// which sets search paths and flags, never `INFOPLIST_FILE`.
    private static func isCocoaPodsConfiguration(_ object: Value?) -> Bool {
        guard case .dictionary(let file)? = object, case .string(let path)? = file["path"] ?? file["name"] else {
            return false
        }
        let name = path.split(separator: "/").last ?? ""
        return name.hasPrefix("Pods-") && name.hasSuffix(".xcconfig")
    }

    /// Product types whose code no other module links: apps, their extensions, watch apps, App Clips.
    private static func isAppProduct(_ type: Value) -> Bool {
        guard case .string(let type) = type else { return false }
        return type.hasPrefix("com.apple.product-type.application")
            || type.hasPrefix("com.apple.product-type.app-extension")
            || type.hasPrefix("com.apple.product-type.watchkit")
            || type.hasPrefix("com.apple.product-type.extensionkit")
    }

    /// Whether only app targets compile the file whose `key` is `key` (`compiledByAppsOnly`, or a synchronized folder
    /// only app targets name).
    func buildsForAppsOnly(key: String) -> Bool {
        if compiled.contains(key) { return compiledByAppsOnly.contains(key) }
        let folders = compiledFolders.filter { key.hasPrefix($0 + "/") }
        return !folders.isEmpty && folders.allSatisfy(foldersOfAppsOnly.contains)
    }

    /// Whether the targets compile the file at `path`.
    func builds(_ path: String) -> Bool { builds(key: Self.key(path)) }

    /// Whether the targets compile the file whose `key` is `key`.
    func builds(key: String) -> Bool { compiled.contains(key) || compiledFolders.contains { key.hasPrefix($0 + "/") } }

    /// `path` as projects compare paths: `normalized`, in lower case.
    static func key(_ path: String) -> String { normalized(path).lowercased() }

    /// Records the paths of the group or file `id` and everything under it; `base` is its group's path. The files whose
    /// path an absolute one of theirs or of a group above them decides are also put in `absolute`.
    private mutating func resolve(
        _ id: String, under base: String, objects: [String: Value], into paths: inout [String: String],
        absolute: inout Set<String>, fromAbsolute: Bool = false, depth: Int
    ) {
        guard depth < 64, case .dictionary(let object)? = objects[id], case .string(let isa)? = object["isa"] else {
            return
        }
        var here = base
        var isAbsolute = fromAbsolute
        if case .string(let path)? = object["path"] {
            switch object["sourceTree"] {
            case .string("<group>")?: here = Self.normalized(base + "/" + path)
            case .string("SOURCE_ROOT")?:
                here = Self.normalized(directory + "/" + path)
                isAbsolute = false
            case .string("<absolute>")?:
                here = Self.normalized(path)
                isAbsolute = true
            default: return
            }
        }
        switch isa {
        case "PBXFileReference":
            paths[id] = here
            if isAbsolute { absolute.insert(id) }
        case "PBXFileSystemSynchronizedRootGroup":
            compiledFolders.append(here.lowercased())
            synchronizedFolders[id] = here.lowercased()
        default:
            guard case .array(let children)? = object["children"] else { return }
            for case .string(let child) in children {
                resolve(
                    child, under: here, objects: objects, into: &paths, absolute: &absolute, fromAbsolute: isAbsolute,
                    depth: depth + 1)
            }
        }
    }

    /// `path` with `.` and `name/..` taken out.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: false) {
            if part == "." || (part.isEmpty && !parts.isEmpty) { continue }
            if part == "..", let last = parts.last, last != "..", !last.isEmpty {
                parts.removeLast()
                continue
            }
            parts.append(part)
        }
        return parts.joined(separator: "/")
    }

    enum Value: Sendable, Equatable {
        case string(String)
        case array([Value])
        case dictionary([String: Value])
    }

    /// Reads one value of the old-style property list format.
    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func value() -> Value? {
            skipSpace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var dictionary: [String: Value] = [:]
                while let more = continues(before: "}") {
                    guard more else { return .dictionary(dictionary) }
                    guard case .string(let key)? = value(), expect("="), let item = value(), expect(";") else {
                        return nil
                    }
                    dictionary[key] = item
                }
                return nil
            case UInt8(ascii: "("):
                index += 1
                var array: [Value] = []
                while let more = continues(before: ")") {
                    guard more else { return .array(array) }
                    guard let item = value() else { return nil }
                    array.append(item)
                    skipSpace()
                    if index < bytes.count, bytes[index] == UInt8(ascii: ",") { index += 1 }
                }
                return nil
            case UInt8(ascii: "\""):
                return quoted()
            default:
                let start = index
                while index < bytes.count, Self.isBare(bytes[index]) { index += 1 }
                guard index > start else { return nil }
                return .string(String(decoding: bytes[start..<index], as: UTF8.self))
            }
        }

        private mutating func quoted() -> Value? {
            index += 1
            var text: [UInt8] = []
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count {
                    index += 1
                    switch bytes[index] {
                    case UInt8(ascii: "n"): text.append(UInt8(ascii: "\n"))
                    case UInt8(ascii: "t"): text.append(UInt8(ascii: "\t"))
                    default: text.append(bytes[index])
                    }
                } else {
                    text.append(bytes[index])
                }
                index += 1
            }
            guard index < bytes.count else { return nil }
            index += 1
            return .string(String(decoding: text, as: UTF8.self))
        }

        /// Inside a dictionary or array: `false` past its closing `close`, `true` when an item follows, `nil` at the
        /// end of the text (cut short).
        private mutating func continues(before close: Unicode.Scalar) -> Bool? {
            skipSpace()
            guard index < bytes.count else { return nil }
            guard bytes[index] == UInt8(ascii: close) else { return true }
            index += 1
            return false
        }

        private mutating func expect(_ character: Unicode.Scalar) -> Bool {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        /// Skips white space and `/* … */` and `// …` comments (the `// !$*UTF8*$!` header among them).
        private mutating func skipSpace() {
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t")
                    || byte == UInt8(ascii: "\r")
                {
                    index += 1
                } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                    index += 2
                    while index + 1 < bytes.count,
                        !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/"))
                    {
                        index += 1
                    }
                    index = min(index + 2, bytes.count)
                } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                } else {
                    return
                }
            }
        }

        /// Characters of an unquoted string: letters, digits and `_$/:.-+<>`.
        private static func isBare(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            default:
                return "_$/:.-+<>".utf8.contains(byte)
            }
        }
    }
}

/// Xcode projects found by the folders that hold them: the projects around a file cost a lookup per folder of its
/// path, not a comparison with every project (a book's examples hold 1,780).
struct ProjectFolders {
    private var indexes: [String: [Int]] = [:]

    init(_ projects: [XcodeProject]) {
        for (index, project) in projects.enumerated() {
            indexes[XcodeProject.key(project.directory), default: []].append(index)
        }
    }

    /// The indexes of the projects whose folder holds the file whose `XcodeProject.key` is `key`, the innermost
    /// folder's first. Paths are compared as `XcodeProject.normalized` spells them, so a tree walked from `.`
    /// (`./App/View.swift`) meets the project's own paths (`App/View.swift`).
    func holding(_ key: String) -> [Int] {
        var found: [Int] = []
        var folder = Substring(key)
        while let slash = folder.lastIndex(of: "/") {
            folder = folder[..<slash]
            if !folder.isEmpty, let here = indexes[String(folder)] { found += here }
        }
        if !key.hasPrefix("/"), let root = indexes[""] { found += root }
        return found
    }
}

/// Xcode projects found by the files they compile: a file's own entry in the projects that list it, and the
/// synchronized folders of those that have any.
struct ProjectBuilds {
    private let projects: [XcodeProject]
    private var listing: [String: [Int]] = [:]
    private let withFolders: [Int]

    init(_ projects: [XcodeProject]) {
        self.projects = projects
        for (index, project) in projects.enumerated() {
            for key in project.compiled { listing[key, default: []].append(index) }
        }
        withFolders = projects.indices.filter { !projects[$0].compiledFolders.isEmpty }
    }

    /// The indexes of the projects whose targets compile the file whose `XcodeProject.key` is `key`.
    func building(_ key: String) -> [Int] {
        let listed = listing[key] ?? []
        return listed + withFolders.filter { !listed.contains($0) && projects[$0].builds(key: key) }
    }
}
