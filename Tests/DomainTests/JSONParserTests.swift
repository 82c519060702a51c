import Domain
import Testing

@Suite("JSON parser")
struct JSONParserTests {
    @Test("valid documents parse to the values they spell")
    func valid() throws {
        let value = try JSONParser().parse(
            #" { "a" : [1, -0.5, 2e3, 1E-2, true, false, null], "b": "\u00e9\ud83d\ude42\n\/", "c": {} } "#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["a", "b", "c"])
        #expect(
            object["a"]
                == .array([.number(1), .number(-0.5), .number(2000), .number(0.01), .bool(true), .bool(false), .null]))
        #expect(object["b"] == .string("é🙂\n/"))
        #expect(object["c"] == .object(JSONObject()))
    }

    @Test("large integers keep their value and fractions read exactly as Double parses them")
    func numbers() throws {
        #expect(try JSONParser().parse("9007199254740993") == .number(9_007_199_254_740_992))
        #expect(try JSONParser().parse("48.2") == .number(48.2))
        #expect(try JSONParser().parse("-0") == .number(-0.0))
        #expect(try JSONParser().parse("123456789012345678") == .number(Double("123456789012345678")!))
        // Zero written small is still zero; a small number a Double can hold (subnormal) is kept.
        #expect(try JSONParser().parse("0e-400") == .number(0))
        #expect(try JSONParser().parse("-0.000e-999") == .number(-0.0))
        #expect(try JSONParser().parse("5e-324") == .number(Double.leastNonzeroMagnitude))
    }

    @Test("decimals of up to 15 digits, and longer ones, parse to the bits Double(String) gives")
    func decimalsAsDoubleParsesThem() throws {
        var random = SeededRandom(seed: 5)
        var texts = [
            "0.0", "-0.0", "0.1", "0.30000000000000004", "999999999999999.9", "99999999999999.99",
            "0.000000000000001", "-1.5", "48.2", "123456789012345.6", "1.7976931348623157", "2.2250738585072014",
        ]
        for _ in 0..<20_000 {
            let digits = 1 + Int(random.next() % 17)
            var text = String((0..<digits).map { _ in Character(String(random.next() % 10)) })
            while text.count > 1, text.hasPrefix("0") { text.removeFirst() }
            let point = 1 + Int(random.next() % UInt64(max(text.count, 2) - 1))
            if point < text.count {
                text.insert(".", at: text.index(text.startIndex, offsetBy: point))
            } else {
                text += ".5"
            }
            if text.hasPrefix(".") { text = "0" + text }
            texts.append(random.chance(0.5) ? "-" + text : text)
        }
        for text in texts {
            let parsed = try #require(try JSONParser().parse(text).numberValue, "\(text)")
            #expect(parsed.bitPattern == Double(text)!.bitPattern, "\(text)")
        }
    }

    @Test(
        "malformed documents are refused with the place and reason",
        arguments: [
            ("", "unexpected end of input at column 1"),
            ("tru", "unexpected word; expected true at column 1"),
            ("[1,]", "trailing comma in an array at column 4"),
            ("[1 2]", "expected ',' or ']' in an array at column 4"),
            ("{\"a\" 1}", "expected ':' after a key at column 6"),
            ("\"abc", "unterminated string at column 1"),
            ("1.", "expected a digit after '.' at column 3"),
            ("1e", "expected a digit in the exponent at column 3"),
            ("-", "expected a digit at column 2"),
            ("\"\\u12\"", "incomplete \\u escape at column 4"),
            ("\"\\udc00\"", "lone surrogate in a \\u escape at column 2"),
            ("// comment", "unexpected character at column 1"),
            (
                "1e-400",
                "number is too small for a 64-bit floating-point value; it is not 0, and not a whole number at column 1"
            ),
            (
                "[0.5e-330]",
                "number is too small for a 64-bit floating-point value; it is not 0, and not a whole number at column 2"
            ),
            ("\u{FEFF}{}", "unexpected byte order mark (U+FEFF); only the start of the input may have one at column 1"),
        ])
    func malformed(text: String, message: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONParser().parse(text) }
        do {
            _ = try JSONParser().parse(text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("writing then parsing gives the same value back")
    func roundTrip() throws {
        var object = JSONObject()
        object["notes"] = .string("line\nbreak \"quoted\" \u{1F} end")
        object["n"] = .number(0.1)
        object["list"] = .array([.number(-1), .string(""), .object(["k": .null])])
        #expect(try JSONParser().parse(object.jsonText) == .object(object))
    }
}
