enum TaskIdentifier {
    static let engagement = "com.example.engagement-daily"
}
