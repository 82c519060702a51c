// swift-format-ignore-file
import Cocoa
import FlutterMacOS

// The example's macOS runner registers the plugins when its window loads; an iOS build compiles none of this.
class MainFlutterWindow: NSWindow {
    override func awakeFromNib() {
        let flutterViewController = FlutterViewController()
        self.contentViewController = flutterViewController
        RegisterGeneratedPlugins(registry: flutterViewController)
        super.awakeFromNib()
    }
}
