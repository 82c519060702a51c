// swift-tools-version: 6.0
import Foundation
import PackageDescription

// libFuzzer targets for the parsers that read untrusted bytes. Kept out of the main package: a
// fuzzer calls libFuzzer's driver, so it links only when built with `-sanitize=fuzzer`, and every
// module it reaches must be compiled with that flag too to be instrumented. Sources/Domain, Sources/Ingestion and Sources/Audit here are symbolic links to the
// main package's folders, so the fuzzers test exactly the code that ships. Build and run them with
// scripts/fuzz.sh.
let package = Package(
    name: "pipeline-fuzz",
    targets: [
        .systemLibrary(name: "CFuzzerDriver"),
        .target(name: "Domain"),
        .target(name: "Ingestion", dependencies: ["Domain"]),
        .target(name: "Audit"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver", "Domain"]),
        .executableTarget(name: "FuzzJSONLines", dependencies: ["FuzzSupport", "Ingestion", "Domain"]),
        .executableTarget(name: "FuzzAppleHealth", dependencies: ["FuzzSupport", "Ingestion", "Domain"]),
        .executableTarget(name: "FuzzAuditTokenizer", dependencies: ["FuzzSupport", "Audit"]),
    ]
)

// The linked folders hold READMEs beside the sources; only Swift files are compiled.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
for target in package.targets where target.type != .system {
    let folder = "Sources/\(target.name)"
    let folderPath = root.appendingPathComponent(folder).resolvingSymlinksInPath().path
    let files = FileManager.default.enumerator(atPath: folderPath)
    while let file = files?.nextObject() as? String {
        var isDirectory: ObjCBool = false
        let path = folderPath + "/" + file
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            !file.hasSuffix(".swift")
        {
            target.exclude.append(file)
        }
    }
}

// lld, not the default ld.gold: gold stops with "internal error in format_file_lineno" when it
// links libFuzzer's runtime with these objects.
for target in package.targets where target.type == .executable {
    target.linkerSettings = [.unsafeFlags(["-use-ld=lld"])]
}

// The same language settings as the main package, so the linked sources compile the same way.
for target in package.targets where target.type != .system {
    target.swiftSettings = [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ]
}
