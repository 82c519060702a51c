// swift-format-ignore-file
import ProjectDescription

/// The app's Info.plist is generated from this manifest at build time; the tree holds none of it.
let backgroundIdentifiers: [Plist.Value] = ["com.example.notes.refresh"]

let project = Project(
    name: "Notes",
    targets: [
        .target(
            name: "Notes", destinations: .iOS, product: .app, bundleId: "com.example.notes",
            infoPlist: .extendingDefault(with: [
                "BGTaskSchedulerPermittedIdentifiers": .array(backgroundIdentifiers),
                "UIBackgroundModes": ["fetch"],
            ]),
            sources: ["App/**"]
        ),
        .target(
            name: "NotesTests", destinations: .iOS, product: .unitTests, bundleId: "com.example.notes.tests",
            infoPlist: .file(path: "App/Tests-Info.plist"), sources: ["Tests/**"]
        ),
    ]
)
