import Foundation
import TestSupport
import Testing

/// The package's declared graph is its real one: each target in Package.swift depends on exactly the package's
/// modules its files import (with `MemberImportVisibility`, a file uses a module's members only when it imports
/// it, so an import is a use).
@Suite("The package graph")
struct PackageGraphTests {
    struct Target {
        var name: String
        var folder: String
        var dependencies: Set<String>
        var isSystemLibrary: Bool
    }

    /// The targets of Package.swift, read from its text: each `.target(`, `.testTarget(`, `.executableTarget(` and
    /// `.systemLibrary(` call, its `name:`, `path:` and `dependencies: [ … ]`.
    static func targets() throws -> [Target] {
        let manifest = try String(contentsOf: repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        var targets: [Target] = []
        for kind in [".target(", ".testTarget(", ".executableTarget(", ".systemLibrary("] {
            var searchStart = manifest.startIndex
            while let open = manifest.range(of: kind, range: searchStart..<manifest.endIndex) {
                var depth = 1
                var index = open.upperBound
                while depth > 0, index < manifest.endIndex {
                    if manifest[index] == "(" { depth += 1 } else if manifest[index] == ")" { depth -= 1 }
                    index = manifest.index(after: index)
                }
                let call = String(manifest[open.upperBound..<index])
                searchStart = index
                guard let name = Self.string(after: "name: ", in: call) else { continue }
                var dependencies: Set<String> = []
                if let list = call.range(of: "dependencies: [") {
                    let end = call[list.upperBound...].firstIndex(of: "]")!
                    for part in call[list.upperBound..<end].split(separator: ",") {
                        let word = part.trimmingCharacters(in: .whitespacesAndNewlines.union(["\""]))
                        if !word.isEmpty { dependencies.insert(word) }
                    }
                }
                let folder =
                    Self.string(after: "path: ", in: call)
                    ?? (kind == ".testTarget(" ? "Tests/\(name)" : "Sources/\(name)")
                targets.append(
                    Target(
                        name: name, folder: folder, dependencies: dependencies,
                        isSystemLibrary: kind == ".systemLibrary("))
            }
        }
        return targets
    }

    static func string(after label: String, in text: String) -> String? {
        guard let start = text.range(of: label + "\"") else { return nil }
        return text[start.upperBound...].split(separator: "\"", maxSplits: 1).first.map(String.init)
    }

    /// The package modules `target`'s Swift files import (fixtures and mutation patches are not compiled); `nil`
    /// for a target without Swift files (a C target includes headers, not modules).
    static func imports(of target: Target, among modules: Set<String>) throws -> Set<String>? {
        let folder = repositoryRoot.appendingPathComponent(target.folder)
        var imported: Set<String> = []
        var isSwift = false
        let files = FileManager.default.enumerator(atPath: folder.path)
        while let file = files?.nextObject() as? String {
            guard file.hasSuffix(".swift"), !file.hasPrefix("Fixtures/"), !file.hasPrefix("Mutations/") else {
                continue
            }
            isSwift = true
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains("import ") {
                let words = line.split(separator: " ")
                guard let position = words.firstIndex(of: "import"), position + 1 < words.count,
                    words[..<position].allSatisfy({ ["@testable", "public", "internal", "package"].contains($0) })
                else { continue }
                let module = String(words[position + 1])
                if modules.contains(module) { imported.insert(module) }
            }
        }
        return isSwift ? imported : nil
    }

    @Test("every target declares exactly the package modules its files import")
    func declaredIsImported() throws {
        let targets = try Self.targets()
        let modules = Set(targets.map(\.name))
        #expect(modules.isSuperset(of: ["Domain", "Storage", "PipelineKit", "PipelineCLI", "CLITests"]))
        var compared = 0
        for target in targets where !target.isSystemLibrary {
            guard let imported = try Self.imports(of: target, among: modules) else { continue }
            compared += 1
            #expect(
                imported == target.dependencies,
                "\(target.name): declared \(target.dependencies.sorted()), imported \(imported.sorted())")
        }
        #expect(compared >= 25)
    }
}
