// swift-tools-version: 6.0
// The README's library example as a program of its own, in a package that depends on pipeline by path as a
// user's package would: scripts/library-example.sh copies the example from the README into Sources/main.swift,
// builds it here and runs it.
import PackageDescription

let package = Package(
    name: "library-example",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "pipeline", path: "../..")],
    targets: [
        .executableTarget(
            name: "library-example", dependencies: [.product(name: "PipelineKit", package: "pipeline")],
            path: "Sources")
    ]
)
