enum Identifiers {
    static let refresh = "com.example.refresh"
}
