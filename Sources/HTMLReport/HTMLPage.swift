import Foundation

/// A page of the report: a whole HTML document with its stylesheet inline, built element by element.
/// Everything from data goes through `HTMLText`; nothing refers outside the page but links to the
/// report's other pages, so a page opens from disk with the network off and JavaScript off.
struct HTMLPage {
    private(set) var body = ""
    private var chartCount = 0
    let title: String

    init(title: String) {
        self.title = title
        body.reserveCapacity(64 * 1024)
    }

    /// Appends markup as written: only for literals and the output of this type and `SVGChart`.
    mutating func raw(_ markup: String) {
        body += markup
    }

    mutating func heading(_ level: Int, _ text: String, id: String? = nil) {
        let anchor = id.map { " id=\"\(HTMLText.attribute($0))\"" } ?? ""
        body += "<h\(level)\(anchor)>\(HTMLText.text(text))</h\(level)>\n"
    }

    mutating func paragraph(_ text: String, class className: String? = nil) {
        let attribute = className.map { " class=\"\(HTMLText.attribute($0))\"" } ?? ""
        body += "<p\(attribute)>\(HTMLText.text(text))</p>\n"
    }

    /// A chart with its caption; ids are numbered in page order.
    mutating func figure(_ chart: SVGChart, caption: String) {
        chartCount += 1
        body += "<figure>" + chart.svg(id: "chart-\(chartCount)")
        body += "<figcaption>\(HTMLText.text(caption))</figcaption></figure>\n"
    }

    /// A table; each cell is text, or a link when `href` is given.
    mutating func table(_ headers: [String], _ rows: [[Cell]], class className: String? = nil) {
        let attribute = className.map { " class=\"\(HTMLText.attribute($0))\"" } ?? ""
        body += "<table\(attribute)><thead><tr>"
        for header in headers { body += "<th scope=\"col\">\(HTMLText.text(header))</th>" }
        body += "</tr></thead><tbody>\n"
        for row in rows {
            body += "<tr>"
            for cell in row {
                let align = cell.numeric ? " class=\"num\"" : ""
                if let href = cell.href {
                    body += "<td\(align)><a href=\"\(HTMLText.attribute(href))\">\(HTMLText.text(cell.text))</a></td>"
                } else {
                    body += "<td\(align)>\(HTMLText.text(cell.text))</td>"
                }
            }
            body += "</tr>\n"
        }
        body += "</tbody></table>\n"
    }

    struct Cell {
        var text: String
        var href: String?
        var numeric = false

        init(_ text: String, href: String? = nil, numeric: Bool = false) {
            self.text = text
            self.href = href
            self.numeric = numeric
        }
    }

    /// The document.
    var html: String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
        <title>\(HTMLText.text(title))</title>
        <style>\(Self.stylesheet)</style>
        </head>
        <body>
        \(body)</body>
        </html>

        """
    }

    /// Colours: a palette that stays apart for the common kinds of colour blindness (Okabe and Ito,
    /// https://jfly.uni-koeln.de/color/).
    static let stylesheet = """
        body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:60rem;\
        padding:0 1rem;color:#1d1d1f;background:#fff;line-height:1.45}
        h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.25rem;margin-top:2.2rem;border-bottom:1px solid #ddd}
        p.meta{color:#555;margin-top:0}p.stale{color:#8a4b00}p.privacy{background:#fff4e5;border-left:4px solid #e69f00;padding:.5rem .8rem}
        figure{margin:1rem 0}figcaption{color:#555;font-size:.9rem}
        table{border-collapse:collapse;margin:.6rem 0;font-size:.92rem}
        th,td{padding:.25rem .6rem;border-bottom:1px solid #e5e5e5;text-align:left;vertical-align:top}
        td.num{text-align:right;font-variant-numeric:tabular-nums}
        .chart{width:100%;height:auto;display:block}.chart.fixed{width:auto;max-width:100%}
        .chart text{font-size:11px;fill:#333}.chart .axis-label{font-size:12px;fill:#555}
        .chart .domain,.chart .tick line{stroke:#888;stroke-width:1}.chart .grid line{stroke:#eee}
        .chart .empty{fill:#999;font-size:13px}
        .chart polyline{fill:none;stroke-width:1.6}.chart .rects rect{stroke:none}
        .series-0 polyline,.series-0 circle{stroke:#0072b2;fill:#0072b2}.series-0 rect{fill:#0072b2}
        .series-0 polyline{fill:none}
        .series-1 polyline{stroke:#d55e00;fill:none;stroke-dasharray:4 2}.series-1 circle{fill:#d55e00}
        .series-1 rect{fill:#d55e00}
        .series-2 polyline{stroke:#009e73;fill:none}.series-2 circle{fill:#009e73}.series-2 rect{fill:#009e73}
        .series-3 polyline{stroke:#cc79a7;fill:none}.series-3 circle{fill:#cc79a7}.series-3 rect{fill:#cc79a7}
        .series-fail rect,.series-fail circle{fill:#d55e00}
        .series-ok rect{fill:#56b4e9}
        .series-user rect{fill:#0072b2}.series-health rect{fill:#009e73}
        .series-band rect{fill:#f0f0f0}.series-flare rect{fill:#fde0cf}
        .series-interval rect{fill:#d55e00;fill-opacity:.14}
        .series-reference polyline{stroke:#999;stroke-dasharray:3 3;fill:none}.series-reference rect{fill:#999}
        .chart .line circle{stroke:none}
        .legend .swatch{stroke:none}
        """
}
