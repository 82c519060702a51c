/// Everything an audit read: the joined index, each file's bytes (to rebuild its tokens when a rule looks
/// closer), and the permitted identifiers of every `Info.plist`.
final class Project {
    let index: ProjectIndex
    let sources: [[UInt8]]
    let propertyLists: [PermittedIdentifiers]
    private var cache: [Int: SourceFile] = [:]
    /// Rebuilt files kept at once; tokens take several times the bytes of the source, so big trees are not kept.
    private static let cacheLimit = 64

    init(summaries: [FileSummary], sources: [[UInt8]], propertyLists: [PermittedIdentifiers]) {
        precondition(summaries.count == sources.count, "one summary per source")
        index = ProjectIndex(files: summaries)
        self.sources = sources
        self.propertyLists = propertyLists
    }

    var fileCount: Int { sources.count }

    func summary(_ file: Int) -> FileSummary { index.files[file] }

    /// The tokens and scopes of file `file`, rebuilt from its bytes.
    func file(_ file: Int) -> SourceFile {
        if let cached = cache[file] { return cached }
        if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
        let built = SourceFile(path: index.files[file].path, bytes: sources[file])
        cache[file] = built
        return built
    }

    func location(file: Int, token: Int) -> SourceLocation {
        self.file(file).location(token)
    }
}
