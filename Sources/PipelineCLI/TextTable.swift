/// Rows printed as a table: a header, then each row with its columns aligned. It streams, so a list of a
/// million runs is never held whole: the widths come from the header and the first `sample` rows, which
/// are held back until then, and a later cell that is longer only pushes the rest of its own line right.
/// The last column is never padded (a reason or a message, as long as it is).
///
/// Cells are printed as given: callers escape what comes from the database (`PrintableExcerpt`).
final class TextTable {
    enum Alignment {
        case left
        case right
    }

    struct Column {
        var title: String
        var alignment: Alignment

        init(_ title: String, _ alignment: Alignment = .left) {
            self.title = title
            self.alignment = alignment
        }
    }

    private let columns: [Column]
    private let writer: OutputWriter
    private let sample: Int
    private var held: [[String]] = []
    private var widths: [Int]?

    init(_ columns: [Column], writer: OutputWriter, sample: Int = 1000) {
        precondition(!columns.isEmpty, "a table has a column")
        self.columns = columns
        self.writer = writer
        self.sample = sample
    }

    /// Whether the reader went away (`pipeline history | head`): the caller can stop producing rows.
    var isClosed: Bool { writer.isClosed }

    /// Adds a row, one cell per column.
    func add(_ cells: [String]) {
        precondition(cells.count == columns.count, "a row has one cell per column")
        if widths == nil {
            held.append(cells)
            if held.count >= sample { start() }
        } else {
            writer.writeLine(line(cells))
        }
    }

    /// Prints what is held. A table without a row prints nothing, not even its header: an empty list is
    /// silent, as cron expects.
    func finish() {
        if widths == nil, !held.isEmpty { start() }
    }

    private func start() {
        var widths = columns.map(\.title.count)
        for row in held {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        self.widths = widths
        writer.writeLine(line(columns.map(\.title)))
        for row in held { writer.writeLine(line(row)) }
        held = []
    }

    private func line(_ cells: [String]) -> String {
        let widths = self.widths ?? []
        var text = ""
        for (index, cell) in cells.enumerated() {
            let last = index == cells.count - 1
            let pad = String(repeating: " ", count: max(0, widths[index] - cell.count))
            let right = columns[index].alignment == .right
            if index > 0 { text += "  " }
            if right {
                text += pad + cell
            } else {
                text += last ? cell : cell + pad
            }
        }
        return text
    }
}
