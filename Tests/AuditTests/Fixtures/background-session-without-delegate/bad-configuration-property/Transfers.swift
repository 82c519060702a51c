// swift-format-ignore-file
import Foundation

final class Transfers {
    let configuration = URLSessionConfiguration.background(withIdentifier: "com.example.transfers")
    var session: URLSession?
}
