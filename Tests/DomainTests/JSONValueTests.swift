import Domain
import Testing

@Suite("JSON output")
struct JSONValueTests {
    @Test("objects keep their key order and escape what JSON requires")
    func writing() {
        var object = JSONObject()
        object["b"] = .number(1)
        object["a"] = .string("quote \" backslash \\ newline \n tab \t bell \u{07} é 🙂")
        object["c"] = .array([.null, .bool(true), .number(-2.5), .number(1e-7), .number(48.2)])
        #expect(
            object.jsonText
                == #"{"b":1,"a":"quote \" backslash \\ newline \n tab \t bell \u0007 é 🙂","c":[null,true,-2.5,1e-07,48.2]}"#
        )
    }

    @Test("a string is written as itself only when every character prints as itself and needs no escape")
    func plainAndEscapedStrings() {
        let cases: [(String, String)] = [
            ("severity_lag1 = 7 (mean)", #""severity_lag1 = 7 (mean)""#),
            ("", #""""#),
            ("~ and space", #""~ and space""#),
            ("quote \" inside", #""quote \" inside""#),
            ("back\\slash", #""back\\slash""#),
            ("delete \u{7F}", #""delete \u007f""#),
            ("unit \u{1F}", #""unit \u001f""#),
            ("caf\u{E9}", "\"caf\u{E9}\""),
            ("override \u{202E}", #""override \u202e""#),
            ("\"edges\"", #""\"edges\"""#),
            ("\r\n\t", #""\r\n\t""#),
            (#"{"a":[1,"b\"c"]}"#, #""{\"a\":[1,\"b\\\"c\"]}""#),
        ]
        for (text, expected) in cases {
            #expect(JSONValue.string(text).jsonText == expected, "\(expected)")
        }
    }

    @Test("numbers print whole without a fraction and otherwise in the shortest form that reads back")
    func numbers() {
        let values: [Double] = [0, -3, 1e15, 0.1, -2.5e-8, 1.0 / 3.0, Double(9_007_199_254_740_993 as Int64), 1e300]
        #expect(
            JSONValue.array(values.map { .number($0) }).jsonText
                == "[0,-3,1000000000000000,0.1,-2.5e-08,0.3333333333333333,9007199254740992.0,1e+300]")
    }

    @Test("setting a key to nil removes it and setting it again appends it")
    func removal() {
        var object: JSONObject = ["x": .number(1), "y": .number(2)]
        object["x"] = nil
        object["x"] = .number(3)
        #expect(object.keys == ["y", "x"])
    }
}
