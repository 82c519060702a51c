// swift-tools-version: 6.0
import Foundation
import PackageDescription

let package = Package(
    name: "pipeline",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "PipelineKit", targets: ["PipelineKit"]),
        .executable(name: "pipeline", targets: ["pipeline"]),
    ],
    targets: [
        // C libraries, reached through two-file system-library shims.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CAllocator"),
        // libpq (libpq-dev's header), loaded at run time (libpq.so.5) by the first connection to a server, so a
        // command that opens none does not load it and the twenty libraries it needs.
        .target(name: "CLibPQ", dependencies: ["CDynamicLibrary"]),
        // What both loaders share: opening a library (RTLD_DEEPBIND outside sanitized builds) and resolving its entries.
        .target(name: "CDynamicLibrary", linkerSettings: [.linkedLibrary("dl")]),

        // Embedded data: migrations and model specs, compiled into the binary (no Bundle.module at run time).
        // Each backend's migrations in its own dialect, numbered the same way (Schema/<backend>/NNNN_name.sql).
        .target(
            name: "SQLiteSchema", path: "Schema/SQLite",
            resources: [
                .embedInCode("0001_daily_log.sql"),
                .embedInCode("0002_watch_queue.sql"),
                .embedInCode("0003_scheduler.sql"),
                .embedInCode("0004_outbox.sql"),
                .embedInCode("0005_models.sql"),
                .embedInCode("0006_claim_order.sql"),
                .embedInCode("0007_operations.sql"),
                .embedInCode("0008_watch_item_identity.sql"),
                .embedInCode("0009_evaluations.sql"),
                .embedInCode("0010_watch_identity_of_kept_items.sql"),
            ]),
        .target(
            name: "PostgreSQLSchema", path: "Schema/PostgreSQL",
            resources: [
                .embedInCode("0001_daily_log.sql"),
                .embedInCode("0002_watch_queue.sql"),
                .embedInCode("0003_scheduler.sql"),
                .embedInCode("0004_outbox.sql"),
                .embedInCode("0005_models.sql"),
                .embedInCode("0006_claim_order.sql"),
                .embedInCode("0007_operations.sql"),
                .embedInCode("0008_watch_item_identity.sql"),
                .embedInCode("0009_evaluations.sql"),
                .embedInCode("0010_watch_identity_of_kept_items.sql"),
            ]),
        .target(name: "ModelSpecs", path: "Models", resources: [.embedInCode("symptom-forecast.json")]),

        // The layers, dependencies pointing one way: CLI → PipelineKit → {Scheduling, Learning, Ingestion, Storage}.
        .target(name: "Domain"),
        .target(name: "Storage", dependencies: ["CSQLite", "CLibPQ", "Domain", "SQLiteSchema", "PostgreSQLSchema"]),
        .target(name: "Scheduling", dependencies: ["Storage", "Domain"]),
        // OpenBLAS, loaded at run time (libopenblas.so.0, from libopenblas-dev) so a process picks its kernels first.
        .target(name: "COpenBLAS", dependencies: ["CDynamicLibrary"]),
        .target(name: "LearningKernels", linkerSettings: [.linkedLibrary("mvec")]),
        .target(name: "Learning", dependencies: ["COpenBLAS", "LearningKernels", "Domain", "ModelSpecs"]),
        .target(name: "Ingestion", dependencies: ["Domain"]),
        .target(
            name: "PipelineKit",
            dependencies: ["CAllocator", "Domain", "Storage", "Scheduling", "Learning", "Ingestion"]),
        .target(name: "Lifecycle", dependencies: ["Scheduling", "PipelineKit"]),
        .target(name: "Audit"),
        // `pipeline report`: the static HTML/SVG site, read through PipelineKit and Storage.
        .target(name: "HTMLReport", dependencies: ["PipelineKit", "Storage", "Scheduling", "Learning", "Domain"]),
        .target(name: "PipelineCLI", dependencies: ["PipelineKit", "Lifecycle", "Audit", "HTMLReport"]),
        .executableTarget(name: "pipeline", dependencies: ["PipelineCLI", "Learning"]),

        // The benchmark script's timing of Learning's fits alone (scripts/bench.sh retrain).
        .executableTarget(
            name: "pipeline-bench", dependencies: ["Domain", "Learning"], path: "Benchmarks/pipeline-bench"),
        // Its timing of scheduler claims under concurrent workers (scripts/bench.sh postgres).
        .executableTarget(name: "claim-bench", dependencies: ["Storage"], path: "Benchmarks/claim-bench"),

        // Tests: one target per module, a shared support target, the regression suite and end-to-end CLI tests.
        .target(
            name: "TestSupport", dependencies: ["PipelineCLI", "PipelineKit", "Storage"], path: "Tests/TestSupport"),
        .testTarget(name: "DomainTests", dependencies: ["Domain", "TestSupport"]),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "TestSupport"]),
        .testTarget(name: "SchedulingTests", dependencies: ["Scheduling", "TestSupport"]),
        .testTarget(name: "LearningTests", dependencies: ["Learning", "LearningKernels", "COpenBLAS", "TestSupport"]),
        .testTarget(name: "IngestionTests", dependencies: ["Ingestion", "TestSupport"]),
        .testTarget(name: "PipelineKitTests", dependencies: ["PipelineKit", "CAllocator", "TestSupport"]),
        .testTarget(name: "LifecycleTests", dependencies: ["Lifecycle", "TestSupport"]),
        // The audit's fixtures are Swift sources of iOS apps: read by the tests, never compiled.
        .testTarget(name: "AuditTests", dependencies: ["Audit", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "CLITests", dependencies: ["PipelineCLI", "TestSupport"]),
        .testTarget(name: "HTMLReportTests", dependencies: ["HTMLReport", "TestSupport"]),
        // Each bug's mutation is a patch scripts/mutate.sh applies to the sources: read, never compiled.
        .testTarget(
            name: "RegressionTests", dependencies: ["PipelineKit", "Scheduling", "Storage", "TestSupport"],
            exclude: ["Mutations"]),
    ]
)

// READMEs, fixtures and golden files live beside the sources; only Swift files (and the C of a C target)
// are compiled (targets with embedded resources declare theirs), so everything else is excluded rather
// than left "unhandled".
let sourceSuffixes = [".swift", ".c", ".h"]
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
for target in package.targets where target.type != .system && target.resources == nil {
    let folder = target.path ?? (target.type == .test ? "Tests/\(target.name)" : "Sources/\(target.name)")
    let files = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
    while let file = files?.nextObject() as? String {
        var isDirectory: ObjCBool = false
        let path = root.appendingPathComponent("\(folder)/\(file)").path
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            !sourceSuffixes.contains(where: file.hasSuffix), !target.exclude.contains(where: { file.hasPrefix($0 + "/") })
        {
            target.exclude.append(file)
        }
    }
}

// Strictness, set once for every target.
for target in package.targets where target.type != .system {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("InternalImportsByDefault"),
        ]
}
