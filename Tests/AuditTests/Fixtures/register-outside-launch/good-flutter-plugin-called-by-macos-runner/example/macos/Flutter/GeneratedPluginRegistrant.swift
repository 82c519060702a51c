// swift-format-ignore-file
import FlutterMacOS
import Foundation

import polling

func RegisterGeneratedPlugins(registry: FlutterPluginRegistry) {
    PollingPlugin.register(with: registry.registrar(forPlugin: "PollingPlugin"))
}
