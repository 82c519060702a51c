// swift-format-ignore-file
enum Identifiers {
    static let refresh = "com.example.refresh"
}
