import Testing

@testable import Audit

@Suite("Build conditions")
struct BuildConditionTests {
    @Test(
        "a device build for iOS decides platform, simulator and import conditions",
        arguments: [
            (" os(iOS)", true as Bool?),
            (" os(macOS)", false),
            (" os( iOS ) || os(watchOS)", true),
            (" targetEnvironment(simulator)", false),
            (" !targetEnvironment(simulator)", true),
            (" canImport(CallKit) && !targetEnvironment(macCatalyst)", true),
            (" canImport(UIKit) && os(tvOS)", false),
            (" !canImport(FoundationNetworking)", true),
            (" canImport(AppKit)", false),
            (" (os(iOS) || os(visionOS)) && !targetEnvironment(simulator) // device only", true),
            (" true", true),
        ])
    func decided(condition: String, value: Bool?) {
        #expect(BuildCondition.value(of: condition) == value)
    }

    @Test(
        "flags the build sets, versions and what cannot be read are not known",
        arguments: [
            " DEBUG", " !DEBUG", " DEBUG && os(iOS)", " swift(>=5.9)", " compiler(>=6)", " arch(arm64)",
            " os(iOS) &&", " (os(iOS)", "",
        ])
    func unknown(condition: String) {
        #expect(BuildCondition.value(of: condition) == nil)
    }

    @Test("an unknown side does not hide a side that decides")
    func shortCircuit() {
        #expect(BuildCondition.value(of: " DEBUG && os(macOS)") == false)
        #expect(BuildCondition.value(of: " DEBUG || os(iOS)") == true)
    }
}
