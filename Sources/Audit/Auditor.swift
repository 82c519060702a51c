/// Audits iOS and macOS Swift sources for background-execution mistakes (DESIGN §10).
///
/// Two passes: every file is tokenized and summarised (declarations, calls, string constants, registrations,
/// requests, sessions), the summaries are joined, then the rules run over the joined facts, reading a file's
/// tokens again where a rule follows paths through a body. Sources are never compiled or executed.
public struct Auditor: Sendable {
    public init() {}

    /// Audits the Swift files and `Info.plist` files at `paths` (files, or directories walked recursively).
    ///
    /// - Throws: `AuditError` naming a path that does not exist or cannot be read. Files found inside a directory
    ///   that cannot be read or are not UTF-8 are listed in `AuditReport.skipped` instead.
    public func audit(paths: [String]) throws(AuditError) -> AuditReport {
        let tree = try SourceTree.find(paths)
        var skipped = tree.skipped
        var named: [(path: String, bytes: [UInt8])] = []
        named.reserveCapacity(tree.swiftFiles.count)
        let projects = Self.trustedProjects(tree)
        let builds = ProjectBuilds(projects.all)
        let packageSources = tree.packageSourceFolders()
        let unbuilt = Self.unbuiltFiles(tree, trusted: projects.trusted, builds: builds, packageSources: packageSources)
        for path in tree.swiftFiles {
            switch SourceTree.read(path) {
            case .success(let bytes):
                named.append((path, bytes))
            case .failure(let failure):
                if tree.named.contains(path) { throw .unreadable(path: path, reason: failure.reason) }
                skipped.append(SkippedFile(file: path, reason: failure.reason))
            }
        }
        var lists: [PermittedIdentifiers] = []
        for path in tree.propertyLists {
            switch SourceTree.read(path) {
            case .success(let bytes):
                switch PermittedIdentifiers.read(path: path, bytes: bytes) {
                case .success(let list): lists.append(list)
                case .failure(let failure): skipped.append(SkippedFile(file: path, reason: failure.reason))
                }
            case .failure(let failure):
                if tree.named.contains(path) { throw .unreadable(path: path, reason: failure.reason) }
                skipped.append(SkippedFile(file: path, reason: failure.reason))
            }
        }
        for path in tree.otherPropertyLists {
            // Only one that is an app's or an extension's Info.plist under another name; the others (settings,
            // entitlements, service configurations) are not read, and not reported as skipped.
            guard case .success(let bytes) = SourceTree.read(path), Self.isInfoPropertyList(bytes),
                case .success(let list) = PermittedIdentifiers.read(path: path, bytes: bytes)
            else { continue }
            lists.append(list)
        }
        let workspaces = tree.workspaces.compactMap { path -> (path: String, text: String)? in
            guard case .success(let bytes) = SourceTree.read(path) else { return nil }
            return (path, String(decoding: bytes, as: UTF8.self))
        }
        for index in lists.indices {
            lists[index].isNamedByNoTarget = Self.isNamedByNoTarget(lists[index].path, projects: projects.trusted)
        }
        let present = Set((tree.propertyLists + tree.otherPropertyLists).map(XcodeProject.key))
        let missingInfoPlists = projects.trusted.flatMap(\.appInfoPlists).filter {
            !present.contains(XcodeProject.key($0))
        }
        let build = Build(
            projects: projects.trusted, packageFolders: tree.packageFolders, workspaces: workspaces, unbuilt: unbuilt,
            missingInfoPlists: missingInfoPlists,
            appOnly: Self.appOnlyFiles(tree, projects: projects.all, builds: builds, packageSources: packageSources),
            localPackages: projects.trusted.isEmpty ? [] : Self.localPackages(tree))
        return audit(
            sources: named, propertyLists: lists, skipped: skipped, otherSources: tree.otherSources,
            manifests: tree.manifests, documents: tree.documents, build: build)
    }

    /// What the tree's Xcode projects say of how it is built.
    private struct Build {
        /// The projects that compile some file of the tree.
        var projects: [XcodeProject] = []
        var packageFolders: [String] = []
        var workspaces: [(path: String, text: String)] = []
        /// `unbuiltFiles`.
        var unbuilt: [String: String] = [:]
        /// The Info.plist files app targets name that the tree does not hold (ignored by git, made by the build).
        var missingInfoPlists: [String] = []
        /// `appOnlyFiles`.
        var appOnly: Set<String> = []
        /// `localPackages`.
        var localPackages: [LocalPackage] = []
    }

    /// A Swift package below the folder audited, and the modules of its `Sources` folder.
    private struct LocalPackage {
        var folder: String
        var modules: Set<String>
    }

    /// The Swift packages of a tree with Xcode projects that lie below the folders audited, not at their top, and are
    /// no pods: an app's own code split into modules (`App/AppPackage/Sources/AppFeature`). Where the app's files
    /// import one of a package's modules (`appOnlyFiles`' imports), the package is built for that app, and its
    /// `public` declarations are no more callable from outside than internal ones. A package at the top of the tree is
    /// the repository's product, whatever example app the tree also holds.
    private static func localPackages(_ tree: SourceTree) -> [LocalPackage] {
        tree.packageFolders.compactMap { folder in
            guard !tree.podFolders.contains(folder),
                !tree.roots.contains(where: { XcodeProject.normalized($0) == XcodeProject.normalized(folder) })
            else { return nil }
            let sources = folder + "/Sources/"
            let modules = tree.swiftFiles.compactMap { path -> String? in
                guard path.hasPrefix(sources) else { return nil }
                let rest = path.dropFirst(sources.count)
                guard let slash = rest.firstIndex(of: "/") else { return nil }
                return String(rest[..<slash])
            }
            return modules.isEmpty ? nil : LocalPackage(folder: folder, modules: Set(modules))
        }
    }

    /// The Swift files of the tree only app targets compile (an app, an extension), in no package's or pod's folder:
    /// no other module imports them, so their `public` declarations are no more callable from outside than internal
    /// ones, and code only they would call is dead when nothing calls it.
    private static func appOnlyFiles(
        _ tree: SourceTree, projects: [XcodeProject], builds: ProjectBuilds, packageSources: [String]
    ) -> Set<String> {
        guard !projects.isEmpty else { return [] }
        return Set(
            tree.swiftFiles.filter { path in
                let key = XcodeProject.key(path)
                let building = builds.building(key)
                return !building.isEmpty && building.allSatisfy { projects[$0].buildsForAppsOnly(key: key) }
                    && !packageSources.contains { path.hasPrefix($0 + "/") }
            })
    }

    /// Whether `path` lies in a folder named `macos` (a Flutter plugin's or a Flutter or React Native app's macOS
    /// side, a macOS target's sources): an iOS build never compiles it, as it does not an `#if os(macOS)` branch, so
    /// nothing there runs on the device, and no call made there reaches the iOS side's functions of the same name.
    private static func isInMacOSFolder(_ path: String) -> Bool {
        path.split(separator: "/").dropLast().contains { $0.lowercased() == "macos" }
    }

    /// Takes `public` off the declarations of each local package whose modules the app's own files import
    /// (`localPackages`).
    private static func makeInternal(
        _ packages: [LocalPackage], of summaries: inout [FileSummary], imports: [[String]], appOnly: Set<String>
    ) {
        guard !packages.isEmpty else { return }
        let imported = Set(summaries.indices.filter { appOnly.contains(summaries[$0].path) }.flatMap { imports[$0] })
        for package in packages where !package.modules.isDisjoint(with: imported) {
            for file in summaries.indices where summaries[file].path.hasPrefix(package.folder + "/") {
                for callable in summaries[file].callables.indices {
                    summaries[file].callables[callable].isPublic = false
                }
            }
        }
    }

    /// The tree's Xcode projects, and of them those that compile some file of the tree: a project that compiles none
    /// is not trusted to tell (its paths may be spelled otherwise), nor one that compiles files by absolute paths
    /// outside its folder (`XcodeProject.compilesFilesElsewhere`).
    private static func trustedProjects(_ tree: SourceTree) -> (all: [XcodeProject], trusted: [XcodeProject]) {
        guard !tree.projects.isEmpty else { return ([], []) }
        let projects = tree.projects.compactMap { path -> XcodeProject? in
            guard case .success(let bytes) = SourceTree.read(path) else { return nil }
            return XcodeProject(path: path, bytes: bytes)
        }
        let folders = ProjectFolders(projects)
        var trusted = Set<Int>()
        for path in tree.swiftFiles {
            let key = XcodeProject.key(path)
            for index in folders.holding(key)
            where projects[index].builds(key: key) && !projects[index].compilesFilesElsewhere {
                trusted.insert(index)
            }
        }
        return (projects, projects.indices.filter(trusted.contains).map { projects[$0] })
    }

    /// The Swift files of the tree that lie in a trusted Xcode project's folder while no target of any project in the
    /// tree compiles them, each with the project's name; a file a Swift package or a pod builds is built
    /// (`packageSourceFolders`). Such a file is left out of the audit only when it is a copy (`unbuiltCopies`): a file
    /// the committed project merely does not list yet may be built by the author's.
    private static func unbuiltFiles(
        _ tree: SourceTree, trusted: [XcodeProject], builds: ProjectBuilds, packageSources: [String]
    ) -> [String: String] {
        guard !trusted.isEmpty else { return [:] }
        let folders = ProjectFolders(trusted)
        var unbuilt: [String: String] = [:]
        for path in tree.swiftFiles {
            let key = XcodeProject.key(path)
            guard builds.building(key).isEmpty, let owner = folders.holding(key).max(),
                !packageSources.contains(where: { path.hasPrefix($0 + "/") })
            else { continue }
            unbuilt[path] = trusted[owner].name
        }
        return unbuilt
    }

    /// Of the files no target compiles (`unbuilt`), the copies, each with the reason it is left out: a Finder copy of
    /// another file (`Manager 2.swift`, `Manager copy.swift`), a file named as one a target compiles, or one that
    /// declares a type a compiled file declares too (the two could not be built together).
    private static func unbuiltCopies(_ unbuilt: [String: String], among summaries: [FileSummary]) -> [String: String] {
        guard !unbuilt.isEmpty else { return [:] }
        func name(_ path: String) -> String { String(path.split(separator: "/").last ?? "").lowercased() }
        let built = summaries.filter { unbuilt[$0.path] == nil }
        let builtNames = Set(built.map { name($0.path) })
        func declared(_ summary: FileSummary) -> [String] {
            summary.types.filter { !$0.isExtension && $0.isTopLevel }.map(\.name)
        }
        let builtTypes = Set(built.flatMap(declared))
        var copies: [String: String] = [:]
        for summary in summaries {
            guard let project = unbuilt[summary.path] else { continue }
            let file = name(summary.path)
            let stem = file.dropLast(".swift".count)
            let isFinderCopy =
                stem.hasSuffix(" copy")
                || stem.split(separator: " ").last.map { $0.allSatisfy(\.isNumber) && stem.contains(" ") } == true
            if isFinderCopy || builtNames.contains(file)
                || declared(summary).contains(where: builtTypes.contains)
            {
                copies[summary.path] = "a copy in \(project)'s folder that no target of it compiles"
            }
        }
        return copies
    }

    /// Whether the plist at `path` lies in the folder of a project in `projects` (the innermost) whose every target's
    /// Info.plist is known, and no project names this one (`PermittedIdentifiers.isNamedByNoTarget`).
    private static func isNamedByNoTarget(_ path: String, projects: [XcodeProject]) -> Bool {
        let key = XcodeProject.key(path)
        let holding = projects.filter { project in
            let folder = XcodeProject.key(project.directory)
            return folder.isEmpty || key.hasPrefix(folder + "/")
        }
        guard let project = holding.max(by: { $0.directory.count < $1.directory.count }),
            project.readsEveryInfoPlist, !project.infoPlists.isEmpty
        else { return false }
        // Another project of the tree may build with it (`../Shared/Info.plist`).
        return !projects.contains { $0.infoPlists.contains { XcodeProject.key($0) == key } }
    }

    /// Keys only a bundle's Info.plist holds: every one has a `CFBundleIdentifier`, unless the build writes it from
    /// its settings (`Info-prod.plist` beside `Info-dev.plist`), when the background keys still say what it is.
    private static let infoKeys = ["CFBundleIdentifier", "BGTaskSchedulerPermittedIdentifiers", "UIBackgroundModes"]
        .map { Array($0.utf8) }

    /// Whether property-list bytes hold one of `infoKeys` (in XML or in a binary list, where keys are stored as plain
    /// ASCII).
    static func isInfoPropertyList(_ bytes: [UInt8]) -> Bool {
        infoKeys.contains { key in
            guard bytes.count >= key.count else { return false }
            var index = 0
            while index <= bytes.count - key.count {
                if bytes[index] == key[0], bytes[index..<(index + key.count)].elementsEqual(key) { return true }
                index += 1
            }
            return false
        }
    }

    /// Audits sources given as text, for callers that already hold them; `propertyLists` are `(path, XML)` pairs.
    public func audit(sources: [(path: String, text: String)], propertyLists: [(path: String, text: String)] = [])
        -> AuditReport
    {
        var skipped: [SkippedFile] = []
        var lists: [PermittedIdentifiers] = []
        for list in propertyLists {
            switch PermittedIdentifiers.read(path: list.path, bytes: Array(list.text.utf8)) {
            case .success(let permitted): lists.append(permitted)
            case .failure(let failure): skipped.append(SkippedFile(file: list.path, reason: failure.reason))
            }
        }
        return audit(sources: sources.map { ($0.path, Array($0.text.utf8)) }, propertyLists: lists, skipped: skipped)
    }

    private func audit(
        sources: [(path: String, bytes: [UInt8])], propertyLists: [PermittedIdentifiers],
        skipped: [SkippedFile], otherSources: [String] = [], manifests: [String] = [], documents: [String] = [],
        build: Build = Build()
    ) -> AuditReport {
        var skipped = skipped
        var summaries: [FileSummary] = []
        var kept: [[UInt8]] = []
        var imports: [[String]] = []
        summaries.reserveCapacity(sources.count)
        kept.reserveCapacity(sources.count)
        for source in sources {
            guard UTF8Validation.isValid(source.bytes) else {
                skipped.append(SkippedFile(file: source.path, reason: "not valid UTF-8"))
                continue
            }
            let file = SourceFile(path: source.path, bytes: source.bytes)
            let modules = Self.imports(of: file)
            if let framework = modules.testFramework {
                skipped.append(SkippedFile(file: source.path, reason: "test code (imports \(framework))"))
                continue
            }
            var summary = FactCollector.collect(file)
            if Self.isInMacOSFolder(source.path) { summary.unbuiltLines = [1...Int.max] }
            if build.appOnly.contains(source.path) {
                summary.isAppSource = true
            }
            // A file in an app's project folder that no target compiles is built, if at all, into the app as well.
            if build.appOnly.contains(source.path) || build.unbuilt[source.path] != nil {
                for callable in summary.callables.indices { summary.callables[callable].isPublic = false }
            }
            summaries.append(summary)
            kept.append(source.bytes)
            imports.append(modules.names)
        }
        Self.makeInternal(build.localPackages, of: &summaries, imports: imports, appOnly: build.appOnly)
        let copies = Self.unbuiltCopies(build.unbuilt, among: summaries)
        if !copies.isEmpty {
            let keep = summaries.indices.filter { copies[summaries[$0].path] == nil }
            for summary in summaries where copies[summary.path] != nil {
                skipped.append(SkippedFile(file: summary.path, reason: copies[summary.path] ?? ""))
            }
            summaries = keep.map { summaries[$0] }
            kept = keep.map { kept[$0] }
            imports = keep.map { imports[$0] }
        }
        let groups = ProjectGroups(
            paths: summaries.map(\.path), imports: imports, projects: build.projects,
            packageFolders: build.packageFolders, workspaces: build.workspaces)
        var findings: [Finding] = []
        let lists = groups.split(propertyLists.map(\.path))
        let others = groups.split(otherSources)
        let manifestsByGroup = groups.split(manifests)
        let documentsByGroup = groups.split(documents)
        let missingByGroup = groups.split(build.missingInfoPlists)
        for (group, files) in groups.files.enumerated() {
            let project = Project(
                summaries: files.map { summaries[$0] }, sources: files.map { kept[$0] },
                propertyLists: lists[group].map { propertyLists[$0] },
                otherSources: others[group].map { otherSources[$0] },
                manifests: manifestsByGroup[group].map { manifests[$0] },
                documents: documentsByGroup[group].map { documents[$0] },
                lacksAppInfoPlist: !missingByGroup[group].isEmpty)
            findings += Self.findings(in: project)
        }
        skipped.sort { $0.file < $1.file }
        return AuditReport(
            findings: Array(Set(findings)), filesScanned: summaries.count,
            propertyListsRead: propertyLists.count, skipped: skipped)
    }

    /// What the rules find in one project, less what dead code or a device build's left-out lines would do.
    private static func findings(in project: Project) -> [Finding] {
        var findings: [Finding] = []
        RegistrationCheck(project: project).run(into: &findings)
        HandlerCheck(project: project).run(into: &findings)
        ResubmitFlagCheck(project: project).run(into: &findings)
        PushCheck(project: project).run(into: &findings)
        BackgroundTaskCheck(project: project).run(into: &findings)
        RefreshRequestCheck(project: project).run(into: &findings)
        SessionCheck(project: project).run(into: &findings)
        BackgroundEventsCheck(project: project).run(into: &findings)
        LocationCheck(project: project).run(into: &findings)
        // What dead code would do never happens (`Reachability.swift`), nor what an iOS device build leaves out
        // (`#if os(macOS)`).
        let summaries = project.index.files
        let fileIndexes = Dictionary(summaries.indices.map { (summaries[$0].path, $0) }) { first, _ in first }
        findings.removeAll { finding in
            guard let file = fileIndexes[finding.file] else { return false }
            return summaries[file].isUnbuilt(line: finding.line)
                || project.isInDeadCode(file: file, line: finding.line)
        }
        return findings
    }
}

extension Auditor {
    /// Frameworks only a test target imports: a file importing one is test code, which never runs in the app.
    private static let testFrameworks: Set<String> = ["XCTest", "Testing", "Quick", "Nimble"]

    /// The modules `file` imports (`import struct Kit.Thing` imports `Kit`), and what makes it test code, if anything:
    /// a test framework it imports (`import XCTest`), or a module it imports `@testable`. A test file's registrations,
    /// handlers and callbacks run only under a test runner, never when the system launches the app.
    static func imports(of file: SourceFile) -> (names: [String], testFramework: String?) {
        var names: [String] = []
        for token in 0..<file.count where file.word(token) == .import {
            var module = token + 1
            if file.word(module).isReserved, file.isIdentifier(module + 1) { module += 1 }
            guard file.isIdentifier(module) else { continue }
            let name = file.text(module)
            if testFrameworks.contains(name) { return (names, name) }
            if file.is(token - 1, "testable"), file.isPunct(token - 2, ASCII.at) { return (names, "@testable " + name) }
            names.append(name)
        }
        return (names, nil)
    }
}

/// A UTF-8 check without building a `String` (the tokenizer reads bytes; only validity matters here).
enum UTF8Validation {
    static func isValid(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            let count = buffer.count
            while index < count {
                let lead = buffer[index]
                if lead < 0x80 {
                    index += 1
                    continue
                }
                let length: Int
                var minimum: UInt32
                var scalar: UInt32
                switch lead {
                case 0xC2...0xDF:
                    length = 2
                    minimum = 0x80
                    scalar = UInt32(lead & 0x1F)
                case 0xE0...0xEF:
                    length = 3
                    minimum = 0x800
                    scalar = UInt32(lead & 0x0F)
                case 0xF0...0xF4:
                    length = 4
                    minimum = 0x10000
                    scalar = UInt32(lead & 0x07)
                default:
                    return false
                }
                guard index + length <= count else { return false }
                for offset in 1..<length {
                    let continuation = buffer[index + offset]
                    guard continuation & 0xC0 == 0x80 else { return false }
                    scalar = scalar << 6 | UInt32(continuation & 0x3F)
                }
                guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { return false }
                index += length
            }
            return true
        }
    }
}
