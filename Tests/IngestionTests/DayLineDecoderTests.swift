import Domain
import Foundation
import Testing

@testable import Ingestion

@Suite("Fast path of entry and health lines")
struct DayLineDecoderTests {
    let decoder = RecordDecoder(defaultEnqueuedAt: Date(timeIntervalSince1970: 0))

    /// What the full path makes of `line`: parse to an object, then decode it.
    func fullPath(_ line: String) -> Result<InputRecord, FieldError> {
        var bytes = Array(line.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            Result { () throws(FieldError) in
                let value: JSONValue
                do throws(JSONSyntaxError) { value = try JSONParser().parse(UnsafeBufferPointer(buffer)) } catch {
                    throw FieldError("json", error.description)
                }
                guard case .object(let object) = value else {
                    throw FieldError("json", "expected one object per line, got \(value.typeName)")
                }
                return try decoder.decode(object)
            }
        }
    }

    func decoded(_ line: String) -> Result<InputRecord, FieldError> {
        var bytes = Array(line.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            Result { () throws(FieldError) in try decoder.decode(line: UnsafeBufferPointer(buffer)) }
        }
    }

    func fastPath(_ line: String) -> InputRecord? {
        var bytes = Array(line.utf8)
        return bytes.withUnsafeMutableBufferPointer { DayLineDecoder.decode(UnsafeBufferPointer($0)) }
    }

    static let lines = [
        #"{"type":"entry","user":"alice","day":"2026-03-01","symptomSeverity":4,"mood":3,"energy":5}"#,
        #"{"type":"health","user":"alice","day":"2026-03-01","hrv":48.2,"restingHeartRate":61,"stepCount":8042,"sleepDuration":25200}"#,
        #"{"type":"entry","user":"a.b_c-9","day":"2026-03-01","hrv":null,"stepCount":0,"notes":"slept badly"}"#,
        #"{"type":"entry","user":"alice","day":"2026-03-01","notes":null}"#,
        #"{"type":"entry","user":"alice","day":"2026-03-01","notes":"Kopfschmerzen, müde ☕"}"#,
        #" { "day" : "2026-03-01" , "user" : "alice" , "type" : "entry" , "mood" : 1 } "#,
        #"{"type":"health","user":"alice","day":"2026-03-01","hrv":null,"stepCount":12}"#,
        #"{"type":"health","user":"alice","day":"2024-02-29","sleepDuration":1.5e2,"restingHeartRate":6.1e1,"stepCount":-0}"#,
        #"{"type":"entry","user":"alice","day":"2026-03-01","symptomSeverity":1.0,"sleepDuration":0.25E1}"#,
    ]

    /// Lines the fast path leaves to the full one, each for the full path to reject or decode.
    static let otherLines = [
        #"{"type":"health","user":"alice","day":"2026-03-01","hrv":null}"#,
        #"{"type":"health","user":"alice","day":"2026-03-01","mood":3,"hrv":40}"#,
        #"{"type":"health","user":"alice","day":"2026-03-01","notes":"x","hrv":40}"#,
        #"{"type":"entry","user":"alice","day":"2026-03-01"}"#,
        #"{"type":"entry","user":"alice","day":"2026-03-01","mood":6}"#,
        #"{"type":"entry","user":"alice","day":"2026-03-01","mood":2.5}"#,
        #"{"type":"entry","user":"alice","day":"2026-03-01","mood":"3"}"#,
        #"{"type":"entry","user":"alice","day":"2026-03-01","mood":3,"mood":4}"#,
        #"{"type":"entry","user":"alice","day":"2026-03-01","symptom_severity":3}"#,
        #"{"type":"entry","user":"alice","day":"2026-02-30","mood":3}"#,
        #"{"type":"entry","user":"al ice","day":"2026-03-01","mood":3}"#,
        #"{"type":"entry","user":"alice","day":"2026-03-01","mood":3} x"#,
        #"{"type":"entry","user":"alice","day":"2026-03-01","mood":3,}"#,
        #"{"type":"entry","user":"alice","day":"2026-03-01","mood":true}"#,
        #"{"type":"entry","user":"alice","day":"2026-03-01","notes":"a\nb"}"#,
        #"{"type":"entry","user":"alice","day":"2026-03-01","hrv":1e999}"#,
        #"{"type":"entry","user":"alice","day":"2026-03-01","hrv":01}"#,
        #"{"type":"Entry","user":"alice","day":"2026-03-01","mood":3}"#,
        #"{"type":"user","user":"alice","timeZone":"Europe/Berlin"}"#,
        #"{"user":"alice","day":"2026-03-01","mood":3}"#,
        #"{"type":"entry","day":"2026-03-01","mood":3}"#,
        #"{"type":"entry","user":"alice","day":"2026-03-01","energy":"#,
        #"[1,2]"#,
        #"{}"#,
    ]

    @Test("the keys it reads are spelt as the fields are")
    func keys() {
        for (name, field) in DayLineDecoder.keys {
            if let field { #expect(name.description == field.rawValue) }
        }
        #expect(DayLineDecoder.keys.compactMap(\.field) == Field.allCases)
    }

    @Test("the usual entry and health lines take the fast path, and decode as the full path does")
    func usualLines() throws {
        for line in Self.lines {
            let fast = try #require(fastPath(line), "\(line)")
            #expect(fullPath(line) == .success(fast), "\(line)")
        }
    }

    @Test("every other line is left to the full path, which words the rejection")
    func otherLines() {
        for line in Self.otherLines {
            #expect(fastPath(line) == nil, "\(line)")
            #expect(decoded(line) == fullPath(line), "\(line)")
        }
    }

    @Test("lines with a byte changed decode exactly as the full path decodes them")
    func mutatedLines() {
        var random = SeededRandom(seed: 16)
        let alphabet = Array(#"{}[]":,.-+eE0123456789 "\nabtyu"#.utf8) + [0x00, 0xC3, 0xA9, 0xFF]
        for line in Self.lines {
            for _ in 0..<400 {
                var bytes = Array(line.utf8)
                let position = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes[position] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                case 1: bytes.remove(at: position)
                default: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: position)
                }
                let mutated = String(decoding: bytes, as: UTF8.self)
                guard Array(mutated.utf8) == bytes else { continue }  // the full path's test helper takes a String
                #expect(decoded(mutated) == fullPath(mutated), "\(mutated)")
            }
        }
    }
}
