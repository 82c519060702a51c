// swift-tools-version:5.9
import PackageDescription

let package = Package(name: "Tracking", targets: [.target(name: "Tracking")])
