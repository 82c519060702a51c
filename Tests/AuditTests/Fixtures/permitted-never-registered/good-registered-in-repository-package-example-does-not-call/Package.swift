// swift-tools-version: 5.9
import PackageDescription

let package = Package(
    name: "ReaderPackage",
    platforms: [.iOS(.v17)],
    products: [.library(name: "ReaderFeature", targets: ["ReaderFeature"])],
    targets: [.target(name: "ReaderFeature"), .testTarget(name: "ReaderFeatureTests", dependencies: ["ReaderFeature"])]
)
