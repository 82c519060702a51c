// swift-format-ignore-file
import BackgroundTasks
import Flutter

/// A service the app never makes: no Swift or Objective-C code names it (the Dart class of the same name is Dart's
/// own), so its channel is never set up and its submit never runs.
class ConversionService {
    private let channel: FlutterMethodChannel

    init(messenger: FlutterBinaryMessenger) {
        channel = FlutterMethodChannel(name: "convert/background", binaryMessenger: messenger)
        channel.setMethodCallHandler { [weak self] call, result in
            if call.method == "start" { self?.schedule() }
            result(nil)
        }
    }

    private func schedule() {
        let request = BGProcessingTaskRequest(identifier: "com.example.convert")
        try? BGTaskScheduler.shared.submit(request)
    }
}
