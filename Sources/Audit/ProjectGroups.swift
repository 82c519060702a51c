/// The apps of one tree that are built apart: a repository of a book's or an SDK's examples holds many Xcode
/// projects, each an app of its own, whose `ViewController`s, registrations and handlers never meet. Each group is
/// audited as a project of its own, so one example's method does not look called through another's protocol, nor its
/// registration like a second one of another example's identifier.
///
/// Projects are one group when any of them builds a file another holds, references it as a subproject, or builds
/// a module a file of the other imports, or when a workspace lists both. A Swift file no project's folder holds goes
/// with the projects nearest to it (a Flutter plugin's pod in `app/plugin/…` with the projects of `app/ios` and
/// `app/macos`); a tree with one that is near none of them more than the others, at or beside the top, or one in a
/// Swift package's or a pod's folder that is so, is never split: any project may use the package without naming it
/// as its own module (`IFTTT SDK.xcodeproj` beside a `Package.swift` whose product the example app imports).
struct ProjectGroups {
    /// The groups, each the indexes (into the paths given) of the files it audits; one group for a tree left whole.
    let files: [[Int]]
    private let folders: ProjectFolders
    /// The group of each project, `nil` for a project that owns no file.
    private let groupOfProject: [Int?]

    init(
        paths: [String], imports: [[String]], projects: [XcodeProject], packageFolders: [String],
        workspaces: [(path: String, text: String)]
    ) {
        let folders = ProjectFolders(projects)
        self.folders = folders
        var parent = Array(projects.indices)
        func root(_ project: Int) -> Int {
            var project = project
            while parent[project] != project { project = parent[project] }
            return project
        }
        func join(_ first: Int, _ second: Int) { parent[root(first)] = root(second) }
        // Two projects in one folder are one app's (its iOS and macOS projects).
        var firstInFolder: [String: Int] = [:]
        for (index, project) in projects.enumerated() {
            let folder = XcodeProject.key(project.directory)
            if let first = firstInFolder[folder] { join(index, first) } else { firstInFolder[folder] = index }
        }
        var owners = paths.map { folders.holding(XcodeProject.key($0)).first }
        // A file no project's folder holds (a Flutter plugin's pod beside the app's `ios` folder) is the nearest
        // projects': those whose folders share the most leading folders with it, more than the tree's top.
        let nearest = NearestProjects(projects, paths: paths)
        // A package inside one project's folder is that project's (a book's example of a local package), and one
        // near some projects is theirs.
        var unheld = packageFolders.contains { folder in
            let key = XcodeProject.key(folder)
            return paths.contains { $0.hasPrefix(folder + "/") }
                && !folders.holding(key).contains { XcodeProject.key(projects[$0].directory) != key }
                && nearest.projects(nearFolder: folder) == nil
        }
        for file in owners.indices where owners[file] == nil && !unheld {
            guard let closest = nearest.projects(near: paths[file]) else {
                unheld = true
                break
            }
            for other in closest.dropFirst() { join(other, closest[0]) }
            owners[file] = closest[0]
        }
        guard firstInFolder.count >= 2, !unheld else {
            self.files = [Array(paths.indices)]
            self.groupOfProject = projects.map { _ in 0 }
            return
        }
        var projectsNamed: [String: [Int]] = [:]
        var projectsBuilding: [String: [Int]] = [:]
        for (index, project) in projects.enumerated() {
            projectsNamed[project.name, default: []].append(index)
            for module in project.modules { projectsBuilding[module, default: []].append(index) }
        }
        for (index, project) in projects.enumerated() {
            for name in project.subprojects { for other in projectsNamed[name] ?? [] { join(index, other) } }
            // A file or a folder it compiles that another project's folder holds.
            for path in Array(project.compiled) + project.compiledFolders.map({ $0 + "/" }) {
                if let owner = folders.holding(path).first { join(index, owner) }
            }
        }
        for workspace in workspaces {
            let components = workspace.path.split(separator: "/", omittingEmptySubsequences: false)
            let folder = XcodeProject.key(components.dropLast(2).joined(separator: "/"))
            let listed = projects.indices.filter { index in
                let directory = XcodeProject.key(projects[index].directory)
                return workspace.text.contains(projects[index].name + "\"")
                    && (folder.isEmpty || directory == folder || directory.hasPrefix(folder + "/"))
            }
            for index in listed.dropFirst() { join(index, listed[0]) }
        }
        for (file, owner) in owners.enumerated() {
            guard let owner else { continue }
            for module in imports[file] { for other in projectsBuilding[module] ?? [] { join(owner, other) } }
        }
        var groupOfRoot: [Int: Int] = [:]
        var files: [[Int]] = []
        for (file, owner) in owners.enumerated() {
            guard let owner else { continue }
            let key = root(owner)
            if let group = groupOfRoot[key] {
                files[group].append(file)
            } else {
                groupOfRoot[key] = files.count
                files.append([file])
            }
        }
        self.files = files
        self.groupOfProject = projects.indices.map { groupOfRoot[root($0)] }
    }

    /// The projects nearest to a file no project's folder holds.
    private struct NearestProjects {
        /// Each project's folder, by its folder names.
        let folders: [[Substring]]
        /// How many leading folders every file of the tree shares: the tree's top.
        let top: Int

        init(_ projects: [XcodeProject], paths: [String]) {
            folders = projects.map { XcodeProject.key($0.directory).split(separator: "/") }
            var shared = paths.first.map { Array(XcodeProject.key($0).split(separator: "/").dropLast()) } ?? []
            for path in paths.dropFirst() {
                shared = Array(Self.common(shared, XcodeProject.key(path).split(separator: "/")))
            }
            top = shared.count
        }

        /// The projects whose folders share the most leading folders with the file at `path`, when that is more than
        /// the tree's top (a file beside every project, or at the top, may be any project's: `nil`).
        func projects(near path: String) -> [Int]? {
            projects(near: Array(XcodeProject.key(path).split(separator: "/").dropLast()))
        }

        /// `projects(near:)` for a folder.
        func projects(nearFolder folder: String) -> [Int]? {
            projects(near: XcodeProject.key(folder).split(separator: "/"))
        }

        private func projects(near components: [Substring]) -> [Int]? {
            let shared = folders.map { Self.common($0, components).count }
            guard let most = shared.max(), most > top else { return nil }
            return shared.indices.filter { shared[$0] == most }
        }

        private static func common(_ first: [Substring], _ second: [Substring]) -> ArraySlice<Substring> {
            var count = 0
            while count < first.count, count < second.count, first[count] == second[count] { count += 1 }
            return first[..<count]
        }
    }

    /// The group a file at `path` that is not Swift (an `Info.plist`, an Objective-C source, a README) belongs to:
    /// that of the project that holds it; `nil` when no project does, and the file belongs to every group.
    func group(of path: String) -> Int? {
        guard files.count > 1, let owner = folders.holding(XcodeProject.key(path)).first else { return nil }
        return groupOfProject[owner]
    }

    /// The indexes of the files at `paths` that belong to each group (`group(of:)`), by group.
    func split(_ paths: [String]) -> [[Int]] {
        var byGroup = Array(repeating: [Int](), count: files.count)
        for (index, path) in paths.enumerated() {
            if let group = group(of: path) {
                byGroup[group].append(index)
            } else {
                for group in byGroup.indices { byGroup[group].append(index) }
            }
        }
        return byGroup
    }
}
