import Foundation
import TestSupport
import Testing

@testable import Audit

@Suite("Xcode projects")
struct XcodeProjectTests {
    static let text = """
        // !$*UTF8*$!
        {
        	archiveVersion = 1;
        	objects = {
        		B1 /* Main View.swift in Sources */ = {isa = PBXBuildFile; fileRef = R1 /* Main View.swift */; };
        		B2 = {isa = PBXBuildFile; fileRef = R2; };
        		R1 = {isa = PBXFileReference; path = "Main View.swift"; sourceTree = "<group>"; };
        		R2 = {isa = PBXFileReference; name = Context.swift; path = HalloApp/Global/Context.swift; sourceTree = SOURCE_ROOT; };
        		R3 = {isa = PBXFileReference; path = Unused.swift; sourceTree = "<group>"; };
        		R4 = {isa = PBXFileReference; path = UIKit.framework; sourceTree = SDKROOT; };
        		G0 = {isa = PBXGroup; children = (G1, R2, S1, ); sourceTree = "<group>"; };
        		G1 = {isa = PBXGroup; children = (R1, R3, R4, ); path = "App/../App/Views"; sourceTree = "<group>"; };
        		S1 = {isa = PBXFileSystemSynchronizedRootGroup; path = Widgets; sourceTree = "<group>"; };
        		P1 = {isa = PBXProject; mainGroup = G0; };
        		X1 = {isa = PBXSourcesBuildPhase; files = (B1, B2, ); };
        	};
        	rootObject = P1;
        }
        """

    static let project = XcodeProject(path: "/repo/ios/App.xcodeproj/project.pbxproj", bytes: Array(text.utf8))

    @Test("a target compiles the files its sources phase lists, wherever their groups put them")
    func listed() throws {
        let project = try #require(Self.project)
        #expect(project.name == "App.xcodeproj")
        #expect(project.builds("/repo/ios/App/Views/Main View.swift"))
        // Paths are compared as the file systems Xcode runs on compare them, whatever their case.
        #expect(project.builds("/repo/ios/Halloapp/Global/Context.swift"))
        #expect(!project.builds("/repo/ios/App/Views/Unused.swift"))
        #expect(!project.builds("/repo/ios/App/Views/Main View 2.swift"))
    }

    @Test("a tree walked from . meets the project's paths")
    func walkedFromHere() throws {
        let project = try #require(XcodeProject(path: "./App.xcodeproj/project.pbxproj", bytes: Array(Self.text.utf8)))
        #expect(project.builds("./App/Views/Main View.swift"))
        #expect(!project.builds("./App/Views/Main View 2.swift"))
        #expect(ProjectFolders([project]).holding(XcodeProject.key("./App/Views/Main View 2.swift")) == [0])
        #expect(project.builds("./Widgets/Deep/Clock.swift"))
    }

    @Test("every file of a synchronized folder is compiled")
    func synchronizedFolder() throws {
        let project = try #require(Self.project)
        #expect(project.builds("/repo/ios/Widgets/Deep/Clock.swift"))
        let folders = ProjectFolders([project])
        #expect(folders.holding(XcodeProject.key("/repo/ios/Other/Clock.swift")) == [0])
        #expect(folders.holding(XcodeProject.key("/repo/web/Clock.swift")).isEmpty)
    }

    @Test("a file that is not a project, or is cut short, is not read as one")
    func notProjects() {
        #expect(XcodeProject(path: "/repo/project.pbxproj", bytes: Array(Self.text.utf8)) == nil)
        #expect(
            XcodeProject(path: "/repo/A.xcodeproj/project.pbxproj", bytes: Array(Self.text.prefix(300).utf8)) == nil)
    }

    @Test("an app target's Info.plist is read from its build settings; an extension's, or one a variable names, is not")
    func appInfoPlists() throws {
        let text = """
            {
            	objects = {
            		G0 = {isa = PBXGroup; children = (); sourceTree = "<group>"; };
            		P1 = {isa = PBXProject; mainGroup = G0; };
            		T1 = {isa = PBXNativeTarget; buildConfigurationList = L1; name = App; productType = "com.apple.product-type.application"; };
            		T2 = {isa = PBXNativeTarget; buildConfigurationList = L2; name = Widget; productType = "com.apple.product-type.app-extension"; };
            		L1 = {isa = XCConfigurationList; buildConfigurations = (C1, C2, C3, ); };
            		L2 = {isa = XCConfigurationList; buildConfigurations = (C4, ); };
            		C1 = {isa = XCBuildConfiguration; buildSettings = {INFOPLIST_FILE = App/Info.plist; }; name = Debug; };
            		C2 = {isa = XCBuildConfiguration; buildSettings = {INFOPLIST_FILE = "$(SRCROOT)/App/Info-Release.plist"; }; name = Release; };
            		C3 = {isa = XCBuildConfiguration; buildSettings = {INFOPLIST_FILE = "$(TARGET_NAME)/Info.plist"; }; name = Beta; };
            		C4 = {isa = XCBuildConfiguration; buildSettings = {INFOPLIST_FILE = Widget/Info.plist; }; name = Debug; };
            	};
            	rootObject = P1;
            }
            """
        let project = try #require(
            XcodeProject(path: "/repo/ios/App.xcodeproj/project.pbxproj", bytes: Array(text.utf8)))
        #expect(project.appInfoPlists == ["/repo/ios/App/Info.plist", "/repo/ios/App/Info-Release.plist"])
        #expect(project.infoPlists == project.appInfoPlists.union(["/repo/ios/Widget/Info.plist"]))
        // `$(TARGET_NAME)` could name any file: which plists the targets use is then not known in full.
        #expect(!project.readsEveryInfoPlist)
    }

    @Test("settings from CocoaPods' xcconfig leave the Info.plists known; another xcconfig may set them")
    func configurationFiles() throws {
        func project(base: String) throws -> XcodeProject {
            let text = """
                {
                	objects = {
                		G0 = {isa = PBXGroup; children = (); sourceTree = "<group>"; };
                		P1 = {isa = PBXProject; mainGroup = G0; };
                		X1 = {isa = PBXFileReference; path = "\(base)"; sourceTree = "<group>"; };
                		T1 = {isa = PBXNativeTarget; buildConfigurationList = L1; name = App; productType = "com.apple.product-type.application"; };
                		L1 = {isa = XCConfigurationList; buildConfigurations = (C1, ); };
                		C1 = {isa = XCBuildConfiguration; baseConfigurationReference = X1; buildSettings = {INFOPLIST_FILE = App/Info.plist; }; name = Debug; };
                	};
                	rootObject = P1;
                }
                """
            return try #require(XcodeProject(path: "/repo/App.xcodeproj/project.pbxproj", bytes: Array(text.utf8)))
        }
        #expect(try project(base: "Target Support Files/Pods-App/Pods-App.debug.xcconfig").readsEveryInfoPlist)
        #expect(try !project(base: "Config/Debug.xcconfig").readsEveryInfoPlist)
    }

    @Test("paths lose their . and .. parts")
    func normalized() {
        #expect(XcodeProject.normalized("/a/./b/../c") == "/a/c")
        #expect(XcodeProject.normalized("/a//b") == "/a/b")
        #expect(XcodeProject.normalized("../x") == "../x")
    }

    /// A project named `name` whose one target (`name`) compiles `name/AppDelegate.swift`.
    static func projectText(_ name: String) -> String {
        """
        // !$*UTF8*$!
        {
        	objects = {
        		B1 = {isa = PBXBuildFile; fileRef = R1; };
        		R1 = {isa = PBXFileReference; path = AppDelegate.swift; sourceTree = "<group>"; };
        		G0 = {isa = PBXGroup; children = (G1, ); sourceTree = "<group>"; };
        		G1 = {isa = PBXGroup; children = (R1, ); path = \(name); sourceTree = "<group>"; };
        		T1 = {isa = PBXNativeTarget; name = \(name); productName = \(name); };
        		P1 = {isa = PBXProject; mainGroup = G0; };
        		X1 = {isa = PBXSourcesBuildPhase; files = (B1, ); };
        	};
        	rootObject = P1;
        }
        """
    }

    /// An app delegate that registers and requests `com.example.refresh` at launch, after `imports`.
    static func appDelegate(imports: String = "") -> String {
        """
        import BackgroundTasks
        import UIKit
        \(imports)

        @main
        class AppDelegate: UIResponder, UIApplicationDelegate {
            func application(
                _ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?
            ) -> Bool {
                BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
                    task.expirationHandler = { task.setTaskCompleted(success: false) }
                    Self.schedule()
                    task.setTaskCompleted(success: true)
                }
                Self.schedule()
                return true
            }

            static func schedule() {
                try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.refresh"))
            }
        }
        """
    }

    static let infoPropertyList = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        	<key>BGTaskSchedulerPermittedIdentifiers</key>
        	<array>
        		<string>com.example.refresh</string>
        	</array>
        </dict>
        </plist>
        """

    /// A book's two example apps, `One` and `Two`, each registering the same identifier in its own project; `linked`
    /// adds what makes them one build. The rules that found something.
    /// `inner` is a folder each example keeps its project in (`ios/`, as a Flutter app does).
    static func examples(_ linked: [String: String] = [:], twoImports: String = "", inner: String = "") throws
        -> Set<String>
    {
        var files = [
            "Examples/One/\(inner)One.xcodeproj/project.pbxproj": projectText("One"),
            "Examples/One/\(inner)One/AppDelegate.swift": appDelegate(),
            "Examples/One/\(inner)One/Info.plist": infoPropertyList,
            "Examples/Two/\(inner)Two.xcodeproj/project.pbxproj": projectText("Two"),
            "Examples/Two/\(inner)Two/AppDelegate.swift": appDelegate(imports: twoImports),
            "Examples/Two/\(inner)Two/Info.plist": infoPropertyList,
        ]
        files.merge(linked) { _, new in new }
        return try rules(auditing: files)
    }

    /// The rules that found something in a tree of `files` (path: text).
    static func rules(auditing files: [String: String]) throws -> Set<String> {
        let directory = TemporaryDirectory()
        for (path, text) in files {
            try FileManager.default.createDirectory(
                atPath: (directory.path(path) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: directory.path(path)))
        }
        return Set(try Auditor().audit(paths: [directory.url.path]).findings.map(\.rule.id))
    }

    @Test("the example apps of one repository, each its own Xcode project, are audited apart")
    func examplesApart() throws {
        #expect(try Self.examples().isEmpty)
        // A plugin's pod beside each app's folder (a Flutter app's `plugin/…`) goes with the app nearest to it.
        #expect(
            try Self.examples(
                [
                    "Examples/One/plugin/Kit/Kit.podspec": Self.podspec,
                    "Examples/One/plugin/Kit/Classes/Kit.swift": Self.kit,
                    "Examples/Two/plugin/Kit/Kit.podspec": Self.podspec,
                    "Examples/Two/plugin/Kit/Classes/Kit.swift": Self.kit,
                ], inner: "ios/"
            ).isEmpty)
    }

    static let podspec = "Pod::Spec.new do |s|\n  s.name = 'Kit'\nend\n"
    static let kit = "enum Kit {\n    static func version() -> String { \"1\" }\n}\n"

    @Test("projects are one app when one imports the other's module, a workspace lists both, or a package holds them")
    func examplesTogether() throws {
        #expect(try Self.examples(twoImports: "import One").contains("duplicate-registration"))
        let workspace = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Workspace version = "1.0">
               <FileRef location = "group:One/One.xcodeproj"></FileRef>
               <FileRef location = "group:Two/Two.xcodeproj"></FileRef>
            </Workspace>
            """
        #expect(
            try Self.examples(["Examples/All.xcworkspace/contents.xcworkspacedata": workspace])
                .contains("duplicate-registration"))
        let package = "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"Kit\")\n"
        #expect(try Self.examples(["Package.swift": package]).contains("duplicate-registration"))
        // A package inside one example's folder is that example's.
        #expect(try Self.examples(["Examples/One/Kit/Package.swift": package]).isEmpty)
        // A pod beside both examples, near neither more than the other, may be either's.
        #expect(
            try Self.examples(["Kit/Kit.podspec": Self.podspec, "Kit/Classes/Kit.swift": Self.kit])
                .contains("duplicate-registration"))
    }

    @Test("a project that compiles files by absolute paths on its author's machine cannot tell which files it builds")
    func absolutePaths() throws {
        // `App/AppDelegate.swift` by its group, `Shared/Log.swift` from a folder on the author's disk.
        let text = Self.projectText("App")
            .replacingOccurrences(
                of: "B1 = {isa = PBXBuildFile; fileRef = R1; };",
                with: "B1 = {isa = PBXBuildFile; fileRef = R1; };\n\t\tB2 = {isa = PBXBuildFile; fileRef = R2; };"
            )
            .replacingOccurrences(
                of: "G0 = {isa = PBXGroup; children = (G1, );",
                with: "R2 = {isa = PBXFileReference; path = Log.swift; sourceTree = \"<group>\"; };\n"
                    + "\t\tG2 = {isa = PBXGroup; children = (R2, ); path = /Users/someone/Shared; sourceTree = \"<absolute>\"; };\n"
                    + "\t\tG0 = {isa = PBXGroup; children = (G1, G2, );"
            )
            .replacingOccurrences(of: "files = (B1, );", with: "files = (B1, B2, );")
        let project = try #require(XcodeProject(path: "/repo/App.xcodeproj/project.pbxproj", bytes: Array(text.utf8)))
        #expect(project.builds("/repo/App/AppDelegate.swift"))
        #expect(project.compilesFilesElsewhere)
        let local = try #require(
            XcodeProject(path: "/repo/App.xcodeproj/project.pbxproj", bytes: Array(Self.projectText("App").utf8)))
        #expect(!local.compilesFilesElsewhere)
        // A group above the project's folder, within the tree (`../Shared`), is no path elsewhere, whether the tree
        // was given as an absolute path or not.
        let shared = Self.text.replacingOccurrences(of: "App/../App/Views", with: "../Shared/Views")
        for path in ["/repo/ios/App.xcodeproj/project.pbxproj", "ios/App.xcodeproj/project.pbxproj"] {
            let project = try #require(XcodeProject(path: path, bytes: Array(shared.utf8)))
            #expect(!project.compilesFilesElsewhere)
            #expect(
                project.builds(
                    path.replacingOccurrences(
                        of: "ios/App.xcodeproj/project.pbxproj", with: "Shared/Views/Main View.swift")))
        }
        // A second delegate in the project's folder, registering the same identifier: left out as a copy no target
        // compiles when the project lists every file it builds; audited when the project names some by paths the
        // tree does not have.
        func rules(_ projectText: String) throws -> Set<String> {
            try Self.rules(auditing: [
                "App.xcodeproj/project.pbxproj": projectText,
                "App/AppDelegate.swift": Self.appDelegate(),
                "App/Info.plist": Self.infoPropertyList,
                "Old/AppDelegate.swift": Self.appDelegate(),
            ])
        }
        #expect(try rules(Self.projectText("App")).isEmpty)
        #expect(try rules(text).contains("duplicate-registration"))
    }

    @Test("a copy beside a package's target folders is built by no package, one inside them is audited")
    func packageFolders() throws {
        func rules(backup: String) throws -> Set<String> {
            try Self.rules(auditing: [
                "App.xcodeproj/project.pbxproj": Self.projectText("App"),
                "App/AppDelegate.swift": Self.appDelegate(),
                "App/Info.plist": Self.infoPropertyList,
                "Package.swift": """
                // swift-tools-version:5.9
                import PackageDescription
                let package = Package(name: "App", targets: [.target(name: "App", path: "App")])
                """,
                backup: Self.appDelegate(),
            ])
        }
        #expect(try rules(backup: "Backup-2025/AppDelegate.swift").isEmpty)
        #expect(try rules(backup: "Sources/Kit/AppDelegate.swift").contains("duplicate-registration"))
    }
}
