/// `allowsBackgroundLocationUpdates = true` needs `location` in `UIBackgroundModes`: without it Core Location
/// raises an exception when the property is set.
struct LocationCheck {
    let project: Project

    func run(into findings: inout [Finding]) {
        let lists = project.propertyLists
        guard !lists.isEmpty else {
            // No Info.plist in a library's or a plugin's tree (a Swift package, a pod, a Cordova, Flutter or Capacitor
            // plugin, a React Native module), whose host app must turn the mode on. Its README or setup guide, its
            // manifest (`plugin.xml`, XcodeGen's YAML) or Tuist's Swift manifest may do so or say how; when none does,
            // nothing tells the app, and setting the property raises the exception there. Other trees without one (a
            // file, a partial checkout) cannot tell.
            let isLibrary =
                project.index.files.contains { $0.path.split(separator: "/").last == "Package.swift" }
                || project.manifests.contains { path in
                    ["podspec", "podspec.json", "plugin.xml", "pubspec.yaml"].contains(where: path.hasSuffix)
                }
                // A React Native module's bridge (`RCT_EXTERN_MODULE(…)` in its Objective-C file).
                || project.namedInOtherSources("RCT_EXTERN_MODULE") || project.namedInOtherSources("RCT_EXPORT_MODULE")
            guard isLibrary, !project.namedInDocuments(Self.locationModeSetup + ["uibackgroundmodes"]),
                !project.namedInManifests("UIBackgroundModes"),
                !project.index.files.contains(where: \.generatesBackgroundModes)
            else { return }
            report(
                "allowsBackgroundLocationUpdates is set to true, but no Info.plist in the tree lists `location` in "
                    + "UIBackgroundModes and no README or manifest tells the app that embeds this code to; without it "
                    + "Core Location raises an exception here.", into: &findings)
            return
        }
        guard !lists.contains(where: { $0.backgroundModes.contains("location") }), !project.lacksAppInfoPlist else {
            return
        }
        // A plugin's tree may hold only its framework's and its tests' plists, which are not the app's: the app that
        // embeds it turns the mode on, when the README tells it to.
        // An app whose own Info.plist is not in the tree (ignored by git, made by the build) holds only its tests':
        // its modes cannot be read — whether its project names that plist (`lacksAppInfoPlist`, above) or the build
        // makes it from settings.
        if lists.allSatisfy(\.isLibraryBundle),
            project.namedInDocuments(Self.locationModeSetup)
                || project.index.files.contains(where: { $0.isAppSource && !$0.backgroundLocationUpdates.isEmpty })
        {
            return
        }
        let plists = lists.map(\.path).joined(separator: ", ")
        report(
            "allowsBackgroundLocationUpdates is set to true, but UIBackgroundModes in \(plists) does not list "
                + "`location`; Core Location raises an exception here.", into: &findings)
    }

    private func report(_ message: String, into findings: inout [Finding]) {
        for fileIndex in 0..<project.fileCount {
            for location in project.summary(fileIndex).backgroundLocationUpdates {
                findings.append(Finding(rule: .backgroundLocationModeMissing, at: location, message: message))
            }
        }
    }

    /// How a README asks for the mode: Xcode's "Location updates" capability, or the plist entry itself.
    private static let locationModeSetup = ["location update", "<string>location</string>"]
}
