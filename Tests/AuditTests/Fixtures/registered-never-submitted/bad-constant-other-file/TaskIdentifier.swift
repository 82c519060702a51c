// swift-format-ignore-file
enum TaskIdentifier {
    static let engagement = "com.example.engagement-daily"
}
