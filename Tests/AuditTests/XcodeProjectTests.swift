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
        #expect(project.holds("./App/Views/Main View 2.swift"))
        #expect(project.builds("./Widgets/Deep/Clock.swift"))
    }

    @Test("every file of a synchronized folder is compiled")
    func synchronizedFolder() throws {
        let project = try #require(Self.project)
        #expect(project.builds("/repo/ios/Widgets/Deep/Clock.swift"))
        #expect(project.holds("/repo/ios/Other/Clock.swift"))
        #expect(!project.holds("/repo/web/Clock.swift"))
    }

    @Test("a file that is not a project, or is cut short, is not read as one")
    func notProjects() {
        #expect(XcodeProject(path: "/repo/project.pbxproj", bytes: Array(Self.text.utf8)) == nil)
        #expect(
            XcodeProject(path: "/repo/A.xcodeproj/project.pbxproj", bytes: Array(Self.text.prefix(300).utf8)) == nil)
    }

    @Test("paths lose their . and .. parts")
    func normalized() {
        #expect(XcodeProject.normalized("/a/./b/../c") == "/a/c")
        #expect(XcodeProject.normalized("/a//b") == "/a/b")
        #expect(XcodeProject.normalized("../x") == "../x")
    }
}
