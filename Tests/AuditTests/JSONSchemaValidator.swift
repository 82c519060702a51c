import Foundation

/// Validates a JSON value against a JSON Schema (draft-04, the dialect of the SARIF 2.1.0 schema), with the keywords
/// that schema uses: `$ref` (local `#/definitions/…`), `type`, `properties`, `additionalProperties`, `required`,
/// `items`, `minItems`, `uniqueItems`, `enum`, `minimum`, `maximum`, `pattern`, `anyOf`, `oneOf` and the `format`s
/// `uri`, `uri-reference` and `date-time`. A keyword it does not know fails the validation, so a schema it cannot
/// fully check is never reported as passed.
struct JSONSchemaValidator {
    let root: [String: Any]

    private static let annotations: Set<String> = ["$schema", "id", "title", "description", "default"]
    private static let known: Set<String> = [
        "$ref", "type", "properties", "additionalProperties", "required", "items", "minItems", "uniqueItems", "enum",
        "minimum", "maximum", "pattern", "anyOf", "oneOf", "format", "definitions",
    ]

    init(schema data: Data) throws {
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ValidationError(message: "the schema is not a JSON object")
        }
        self.root = root
    }

    struct ValidationError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Every way `document` breaks the schema, each naming the JSON pointer of the value; empty when it is valid.
    func errors(in document: Data) throws -> [String] {
        let value = try JSONSerialization.jsonObject(with: document, options: [.fragmentsAllowed])
        var found: [String] = []
        validate(value, against: root, at: "", into: &found)
        return found
    }

    private func resolve(_ reference: String) -> [String: Any]? {
        guard reference.hasPrefix("#/") else { return nil }
        var node: Any = root
        for part in reference.dropFirst(2).split(separator: "/") {
            guard let object = node as? [String: Any], let next = object[String(part)] else { return nil }
            node = next
        }
        return node as? [String: Any]
    }

    private func validate(_ value: Any, against schema: [String: Any], at pointer: String, into found: inout [String]) {
        for key in schema.keys where !Self.known.contains(key) && !Self.annotations.contains(key) {
            found.append("\(pointer): the schema uses `\(key)`, which this validator does not check")
        }
        if let reference = schema["$ref"] as? String {
            guard let target = resolve(reference) else {
                found.append("\(pointer): unresolvable $ref \(reference)")
                return
            }
            validate(value, against: target, at: pointer, into: &found)
        }
        if let type = schema["type"] {
            let types = (type as? [String]) ?? [(type as? String) ?? ""]
            if !types.contains(where: { Self.has(value, type: $0) }) {
                found.append("\(pointer): expected \(types.joined(separator: " or ")), found \(Self.kind(of: value))")
                return
            }
        }
        if let options = schema["enum"] as? [Any], !options.contains(where: { Self.equal($0, value) }) {
            found.append("\(pointer): \(value) is not one of \(options)")
        }
        if let object = value as? [String: Any] { validateObject(object, schema, pointer, &found) }
        if let array = value as? [Any] { validateArray(array, schema, pointer, &found) }
        if let number = Self.number(value) {
            if let minimum = schema["minimum"].flatMap(Self.number), number < minimum {
                found.append("\(pointer): \(number) is below the minimum \(minimum)")
            }
            if let maximum = schema["maximum"].flatMap(Self.number), number > maximum {
                found.append("\(pointer): \(number) is above the maximum \(maximum)")
            }
        }
        if let string = value as? String { validateString(string, schema, pointer, &found) }
        if let choices = schema["anyOf"] as? [[String: Any]] {
            let passing = choices.filter { choice in
                var inner: [String] = []
                validate(value, against: choice, at: pointer, into: &inner)
                return inner.isEmpty
            }
            if passing.isEmpty { found.append("\(pointer): matches none of the anyOf schemas") }
        }
        if let choices = schema["oneOf"] as? [[String: Any]] {
            let passing = choices.filter { choice in
                var inner: [String] = []
                validate(value, against: choice, at: pointer, into: &inner)
                return inner.isEmpty
            }
            if passing.count != 1 { found.append("\(pointer): matches \(passing.count) of the oneOf schemas, not 1") }
        }
    }

    private func validateObject(
        _ object: [String: Any], _ schema: [String: Any], _ pointer: String, _ found: inout [String]
    ) {
        let properties = schema["properties"] as? [String: [String: Any]] ?? [:]
        for name in schema["required"] as? [String] ?? [] where object[name] == nil {
            found.append("\(pointer): the required property `\(name)` is missing")
        }
        for (name, member) in object {
            let path = "\(pointer)/\(name)"
            if let property = properties[name] {
                validate(member, against: property, at: path, into: &found)
            } else if let additional = schema["additionalProperties"] {
                if let allowed = additional as? Bool {
                    if !allowed { found.append("\(path): the property is not allowed here") }
                } else if let additionalSchema = additional as? [String: Any] {
                    validate(member, against: additionalSchema, at: path, into: &found)
                }
            }
        }
    }

    private func validateArray(_ array: [Any], _ schema: [String: Any], _ pointer: String, _ found: inout [String]) {
        if let minimum = schema["minItems"].flatMap(Self.number), Double(array.count) < minimum {
            found.append("\(pointer): \(array.count) items, fewer than \(minimum)")
        }
        if schema["uniqueItems"] as? Bool == true {
            for (index, element) in array.enumerated()
            where array[..<index].contains(where: { Self.equal($0, element) }) {
                found.append("\(pointer)/\(index): repeats an earlier item")
            }
        }
        if let items = schema["items"] as? [String: Any] {
            for (index, element) in array.enumerated() {
                validate(element, against: items, at: "\(pointer)/\(index)", into: &found)
            }
        }
    }

    private func validateString(_ string: String, _ schema: [String: Any], _ pointer: String, _ found: inout [String]) {
        if let pattern = schema["pattern"] as? String {
            guard let expression = try? NSRegularExpression(pattern: pattern) else {
                found.append("\(pointer): the schema's pattern \(pattern) does not compile")
                return
            }
            let range = NSRange(string.startIndex..., in: string)
            if expression.firstMatch(in: string, range: range) == nil {
                found.append("\(pointer): \"\(string)\" does not match \(pattern)")
            }
        }
        switch schema["format"] as? String {
        case "uri":
            if URL(string: string)?.scheme == nil { found.append("\(pointer): \"\(string)\" is not an absolute URI") }
        case "uri-reference":
            if URL(string: string) == nil { found.append("\(pointer): \"\(string)\" is not a URI reference") }
        case "date-time":
            if ISO8601DateFormatter().date(from: string) == nil {
                found.append("\(pointer): \"\(string)\" is not an RFC 3339 date-time")
            }
        case nil:
            break
        case let other?:
            found.append("\(pointer): the schema's format \(other) is not checked by this validator")
        }
    }

    // MARK: JSON values as Foundation gives them

    /// JSONSerialization gives numbers as `NSNumber` and booleans as its subclass `__NSCFBoolean` (on Linux as on
    /// Darwin); `value is Bool` holds for the numbers 0 and 1 too, so the class decides.
    private static func isBoolean(_ value: Any) -> Bool {
        String(describing: type(of: value)).contains("Boolean")
    }

    private static func number(_ value: Any) -> Double? {
        guard !isBoolean(value), let number = value as? NSNumber else { return nil }
        return number.doubleValue
    }

    private static func has(_ value: Any, type: String) -> Bool {
        switch type {
        case "object": value is [String: Any]
        case "array": value is [Any]
        case "string": value is String
        case "boolean": isBoolean(value)
        case "integer": number(value).map { $0 == $0.rounded() } ?? false
        case "number": number(value) != nil
        case "null": value is NSNull
        default: false
        }
    }

    private static func kind(of value: Any) -> String {
        ["object", "array", "string", "boolean", "integer", "number", "null"].first { has(value, type: $0) } ?? "?"
    }

    private static func equal(_ lhs: Any, _ rhs: Any) -> Bool {
        guard JSONSerialization.isValidJSONObject([lhs]), JSONSerialization.isValidJSONObject([rhs]),
            let left = try? JSONSerialization.data(withJSONObject: [lhs], options: [.sortedKeys]),
            let right = try? JSONSerialization.data(withJSONObject: [rhs], options: [.sortedKeys])
        else { return false }
        return left == right
    }
}
