// swift-format-ignore-file
import Cocoa
import FlutterMacOS

// The macOS side, built only into macOS apps.
public class PollingPlugin: NSObject, FlutterPlugin {
    public static func register(with registrar: FlutterPluginRegistrar) {
        let instance = PollingPlugin()
        let channel = FlutterMethodChannel(name: "polling", binaryMessenger: registrar.messenger)
        registrar.addMethodCallDelegate(instance, channel: channel)
    }

    public func handle(_ call: FlutterMethodCall, result: @escaping FlutterResult) {
        result(nil)
    }
}
