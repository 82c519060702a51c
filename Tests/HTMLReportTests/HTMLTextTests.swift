import HTMLReport
import Testing

@Suite("HTML escaping")
struct HTMLTextTests {
    @Test("markup characters become references, so no input opens a tag or leaves an attribute")
    func markup() {
        #expect(
            HTMLText.text("<script>alert('x') & \"y\"</script>")
                == "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;")
        #expect(HTMLText.attribute("a\"b\nc") == "a&quot;b&#10;c")
    }

    @Test("control characters and bidirectional overrides are shown escaped; text and newlines stay")
    func controls() {
        #expect(HTMLText.text("slept\u{1B}[2Jbadly\u{7F}") == "slept\\u{1b}[2Jbadly\\u{7f}")
        #expect(HTMLText.text("abc\u{202E}def\u{2066}") == "abc\\u{202e}def\\u{2066}")
        #expect(HTMLText.text("Müde\nwieder — 3/10") == "Müde\nwieder — 3/10")
    }
}
