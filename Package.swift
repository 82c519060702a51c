// swift-tools-version: 6.0
import Foundation
import PackageDescription

/// Every migration, named alike on both backends (`Schema/<backend>/NNNN_name.sql`), embedded in order: a new
/// migration is its two files, its name here and its line in each folder's `Migrations.swift`, which
/// `MigrationTests` checks against the files. Named here, not read from the folders: SwiftPM keeps what a manifest
/// declared by the manifest's text, so a migration added to the folders alone could be built without it.
let migrations: [Resource] = [
    "0001_daily_log", "0002_watch_queue", "0003_scheduler", "0004_outbox", "0005_models", "0006_claim_order",
    "0007_operations", "0008_watch_item_identity", "0009_evaluations", "0010_watch_identity_of_kept_items",
    "0011_days_user_check_per_statement", "0012_artifact_compression", "0013_claims_by_task", "0014_history_retention",
    "0015_open_runs_by_request", "0016_days_as_dates",
].map { .embedInCode($0 + ".sql") }

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
        .target(name: "SQLiteSchema", path: "Schema/SQLite", resources: migrations),
        .target(name: "PostgreSQLSchema", path: "Schema/PostgreSQL", resources: migrations),
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
        .target(name: "Lifecycle", dependencies: ["Domain", "Storage", "Scheduling", "PipelineKit"]),
        .target(name: "Audit"),
        // `pipeline report`: the static HTML/SVG site. It and the CLI reach the database only through PipelineKit, and
        // import Storage, Scheduling, Learning and Ingestion for the values PipelineKit's API hands out (records,
        // errors, artifacts): a file may use a type's members only when it imports the type's module.
        .target(name: "HTMLReport", dependencies: ["Domain", "Storage", "Scheduling", "Learning", "PipelineKit"]),
        .target(
            name: "PipelineCLI",
            dependencies: [
                "Domain", "Storage", "Scheduling", "Learning", "Ingestion", "PipelineKit", "Lifecycle", "Audit",
                "HTMLReport",
            ]),
        .executableTarget(name: "pipeline", dependencies: ["Learning", "PipelineKit", "PipelineCLI"]),

        // The benchmark script's timing of Learning's fits alone (scripts/bench.sh retrain).
        .executableTarget(
            name: "pipeline-bench", dependencies: ["Domain", "Learning"], path: "Benchmarks/pipeline-bench"),
        // Its timing of scheduler claims under concurrent workers (scripts/bench.sh postgres).
        .executableTarget(name: "claim-bench", dependencies: ["Storage"], path: "Benchmarks/claim-bench"),

        // Tests: one target per module, a shared support target, the regression suite and end-to-end CLI tests.
        // The calls that start a test's child process with exactly the descriptors it is given.
        .systemLibrary(name: "CSpawn", path: "Tests/CSpawn"),
        .target(
            name: "TestSupport", dependencies: ["Domain", "Storage", "Ingestion", "PipelineKit", "PipelineCLI"],
            path: "Tests/TestSupport"),
        .testTarget(name: "DomainTests", dependencies: ["Domain", "TestSupport"]),
        .testTarget(name: "StorageTests", dependencies: ["Domain", "Storage", "TestSupport"]),
        .testTarget(name: "SchedulingTests", dependencies: ["Domain", "Storage", "Scheduling", "TestSupport"]),
        .testTarget(
            name: "LearningTests", dependencies: ["Domain", "Learning", "LearningKernels", "COpenBLAS", "TestSupport"]),
        .testTarget(name: "IngestionTests", dependencies: ["Domain", "Ingestion", "TestSupport"]),
        .testTarget(
            name: "PipelineKitTests",
            dependencies: [
                "Domain", "Storage", "Scheduling", "Learning", "Ingestion", "PipelineKit", "CAllocator", "TestSupport",
            ]),
        .testTarget(name: "LifecycleTests", dependencies: ["Domain", "Scheduling", "PipelineKit", "Lifecycle"]),
        // The audit's fixtures are Swift sources of iOS apps: read by the tests, never compiled.
        .testTarget(name: "AuditTests", dependencies: ["Audit", "TestSupport"], exclude: ["Fixtures", "Corpus"]),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "Domain", "Storage", "Scheduling", "Learning", "Ingestion", "PipelineKit", "Lifecycle", "PipelineCLI",
                "TestSupport", "CSpawn",
            ]),
        .testTarget(
            name: "HTMLReportTests",
            dependencies: [
                "Domain", "Storage", "Learning", "Ingestion", "PipelineKit", "HTMLReport", "TestSupport", "CSpawn",
            ]),
        // Each bug's mutation is a patch scripts/mutate.sh applies to the sources: read, never compiled.
        .testTarget(
            name: "RegressionTests", dependencies: ["Domain", "Storage", "Scheduling", "PipelineKit", "TestSupport"],
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
            !sourceSuffixes.contains(where: file.hasSuffix),
            !target.exclude.contains(where: { file.hasPrefix($0 + "/") })
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
            // A file uses a module's members only when it imports that module: what a file reads is what it says.
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}
