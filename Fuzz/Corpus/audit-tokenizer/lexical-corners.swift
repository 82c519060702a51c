/* outer /* nested */ still comment */
let `class` = #"raw \(not) "quoted" "#
let raw2 = ##"a "# b"##
let interpolated = "sum \(a + (b * c)) and \("inner \(deep)") // not a comment"
let raw3 = #"raw \#(value) end"#
let multi = """
    line one \(x)
    "quoted" and \"""
    """
let regex = #/a+b*/#
#if DEBUG && os(iOS)
let n = 0x1F_FF + 1_000.5e-3 + 0b1010
#elseif canImport(UIKit)
let s = "\u{1F600}"
#else
let $0x = 1
#endif
BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.refresh", using: nil) { task in
    task.expirationHandler = { task.setTaskCompleted(success: false) }
}
let é = "ünïcödé"
