import Foundation
import FoundationXML
import HTMLReport
import Testing

/// The chart builder: axes with round ticks, data mapped into the plot, gaps kept, valid SVG.
@Suite("SVG charts")
struct SVGChartTests {
    static func chart(marks: [SVGChart.Mark], title: String = "Severity") -> SVGChart {
        SVGChart(
            title: title, width: 400, height: 200, x: .linear("day", domain: 0...10),
            y: .linear("severity", domain: 0...10), marks: marks,
            legend: [SVGChart.LegendEntry("logged", seriesClass: "series-0")])
    }

    /// The SVG as XML. The SVG namespace is dropped first: FoundationXML's XPath and attribute lookups
    /// do not see elements in a default namespace.
    static func document(_ svg: String) throws -> XMLDocument {
        #expect(svg.contains(" xmlns=\"http://www.w3.org/2000/svg\""))
        return try XMLDocument(
            xmlString: svg.replacingOccurrences(of: " xmlns=\"http://www.w3.org/2000/svg\"", with: ""), options: [])
    }

    static func nodes(_ document: XMLDocument, _ xpath: String) throws -> [XMLNode] {
        try document.nodes(forXPath: xpath)
    }

    @Test("ticks are 1, 2 or 5 × 10ⁿ apart, inside the domain")
    func ticks() {
        #expect(SVGChart.Axis.linear("", domain: 0...10).ticks.map(\.value) == [0, 2, 4, 6, 8, 10])
        #expect(SVGChart.Axis.linear("", domain: 0...1, count: 4).ticks.map(\.label) == ["0", "0.5", "1"])
        #expect(
            SVGChart.Axis.linear("", domain: 0...1, count: 5).ticks.map(\.label) == [
                "0", "0.2", "0.4", "0.6", "0.8", "1",
            ])
        #expect(SVGChart.Axis.linear("", domain: 0...23, count: 4).ticks.map(\.value) == [0, 10, 20])
        #expect(SVGChart.Axis.linear("", domain: 0...23, count: 5).ticks.map(\.value) == [0, 5, 10, 15, 20])
        #expect(
            SVGChart.Axis.linear("", domain: -0.03...1.03, count: 6).ticks.map(\.label) == [
                "0", "0.2", "0.4", "0.6", "0.8", "1",
            ])
        #expect(SVGChart.Axis.linear("", domain: 3...3).ticks.isEmpty)
    }

    @Test("the SVG is well-formed, titled, with both axes, their ticks and labels, and the legend")
    func structure() throws {
        let svg = Self.chart(
            marks: [.line([SVGChart.Point(0, 0), SVGChart.Point(10, 10)], seriesClass: "series-0")],
            title: "Severity <&> \"x\""
        ).svg(id: "c1")
        let document = try Self.document(svg)
        let root = try #require(document.rootElement())
        #expect(root.name == "svg")
        #expect(root.attribute(forName: "viewBox")?.stringValue == "0 0 400 200")
        #expect(try Self.nodes(document, "/svg/title").first?.stringValue == "Severity <&> \"x\"")
        #expect(try Self.nodes(document, "//*[@class='axis x-axis']/*[@class='tick']").count == 6)
        #expect(try Self.nodes(document, "//*[@class='axis y-axis']/*[@class='tick']").count == 6)
        #expect(
            try Self.nodes(document, "//*[@class='axis x-axis']/*[@class='axis-label']").first?.stringValue == "day")
        #expect(try Self.nodes(document, "//*[@class='legend']//text").first?.stringValue == "logged")
        #expect(try Self.nodes(document, "//*[@class='empty']").isEmpty)
    }

    @Test("data maps into the plot area: the domain's corners are the plot's, up is larger")
    func mapping() throws {
        let svg = Self.chart(marks: [.line([SVGChart.Point(0, 0), SVGChart.Point(10, 10)], seriesClass: "series-0")])
            .svg(id: "c")
        let points = try #require(
            try Self.nodes(Self.document(svg), "//polyline").first as? XMLElement)
        // Plot: left 56, right 400 − 16, top 12 + 22 for the legend, bottom 200 − 44.
        #expect(points.attribute(forName: "points")?.stringValue == "56,156 384,34")
    }

    @Test("a day not logged breaks the line; a lone day between gaps is a dot")
    func gaps() throws {
        let values: [SVGChart.Point?] = [
            SVGChart.Point(0, 1), SVGChart.Point(1, 2), nil, SVGChart.Point(3, 3), nil, SVGChart.Point(5, 4),
            SVGChart.Point(6, 5),
        ]
        let document = try Self.document(Self.chart(marks: [.line(values, seriesClass: "series-0")]).svg(id: "c"))
        #expect(try Self.nodes(document, "//polyline").count == 2)
        #expect(try Self.nodes(document, "//*[@class='plot']//circle").count == 1)
    }

    @Test("rectangles span their data ranges and carry their label as a tooltip")
    func rects() throws {
        let svg = Self.chart(marks: [
            .rects([SVGChart.Rect(x: 0...5, y: 0...10, label: "2026-03-01: 4 <ok>")], seriesClass: "series-ok")
        ]).svg(id: "c")
        let rect = try #require(
            try Self.nodes(Self.document(svg), "//*[@class='plot']//rect").first as? XMLElement)
        #expect(rect.attribute(forName: "x")?.stringValue == "56")
        #expect(rect.attribute(forName: "width")?.stringValue == "164")
        #expect(rect.attribute(forName: "y")?.stringValue == "34")
        #expect(rect.attribute(forName: "height")?.stringValue == "122")
        #expect(rect.stringValue == "2026-03-01: 4 <ok>")
    }

    @Test("a chart without data says so, and keeps its axes")
    func empty() throws {
        let document = try Self.document(Self.chart(marks: [.line([nil, nil], seriesClass: "series-0")]).svg(id: "c"))
        #expect(try Self.nodes(document, "//*[@class='empty']").first?.stringValue == "No data yet")
        #expect(try Self.nodes(document, "//*[@class='axis y-axis']").count == 1)
    }

    @Test("the same chart is the same bytes")
    func deterministic() {
        let chart = Self.chart(marks: [.dots([SVGChart.Point(1.23456, 7.891)], radius: 3, seriesClass: "series-1")])
        #expect(chart.svg(id: "a") == chart.svg(id: "a"))
        #expect(chart.svg(id: "a").contains("<circle cx=\"96.5\" cy=\"59.7\" r=\"3\"/>"))
    }
}
