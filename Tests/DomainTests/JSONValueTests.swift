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

    @Test("setting a key to nil removes it and setting it again appends it")
    func removal() {
        var object: JSONObject = ["x": .number(1), "y": .number(2)]
        object["x"] = nil
        object["x"] = .number(3)
        #expect(object.keys == ["y", "x"])
    }
}
