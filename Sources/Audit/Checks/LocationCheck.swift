/// `allowsBackgroundLocationUpdates = true` needs `location` in `UIBackgroundModes`: without it Core Location
/// raises an exception when the property is set.
struct LocationCheck {
    let project: Project

    func run(into findings: inout [Finding]) {
        let lists = project.propertyLists
        // Without an Info.plist in the tree the audit cannot see the app's background modes.
        guard !lists.isEmpty, !lists.contains(where: { $0.backgroundModes.contains("location") }) else { return }
        // A plugin's tree may hold only its framework's and its tests' plists, which are not the app's: the app that
        // embeds it turns the mode on, when the README tells it to.
        if lists.allSatisfy(\.isLibraryBundle), project.namedInDocuments(Self.locationModeSetup) { return }
        let plists = lists.map(\.path).joined(separator: ", ")
        for fileIndex in 0..<project.fileCount {
            for location in project.summary(fileIndex).backgroundLocationUpdates {
                findings.append(
                    Finding(
                        rule: .backgroundLocationModeMissing, at: location,
                        message: "allowsBackgroundLocationUpdates is set to true, but UIBackgroundModes in "
                            + "\(plists) does not list `location`; Core Location raises an exception here."))
            }
        }
    }

    /// How a README asks for the mode: Xcode's "Location updates" capability, or the plist entry itself.
    private static let locationModeSetup = ["location update", "<string>location</string>"]
}
