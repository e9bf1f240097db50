import Foundation

/// The output formats of the command-line tool.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// Aligned columns for reading on a terminal.
    case table
    /// Comma-separated values with a header row (RFC 4180 quoting).
    case csv
    /// One JSON document.
    case json
}

/// Renders rows of cells as aligned text columns; numbers are right-aligned.
public func renderTable(columns: [String], rows: [[String]]) -> String {
    var widths = columns.map(\.count)
    for row in rows {
        for (index, cell) in row.enumerated() where index < widths.count { widths[index] = max(widths[index], cell.count) }
    }
    func line(_ cells: [String]) -> String {
        cells.enumerated().map { index, cell in
            let padding = String(repeating: " ", count: widths[index] - cell.count)
            let numeric = Double(cell) != nil || cell.isEmpty
            return index == 0 || !numeric ? cell + padding : padding + cell
        }.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
    }
    return ([line(columns)] + rows.map(line)).joined(separator: "\n") + "\n"
}

/// Renders rows as CSV with a header, quoting cells that need it.
public func renderCSV(columns: [String], rows: [[String]]) -> String {
    func quote(_ cell: String) -> String {
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
    return ([columns] + rows).map { $0.map(quote).joined(separator: ",") }.joined(separator: "\n") + "\n"
}

/// Encodes a value as pretty-printed JSON with sorted keys (stable output), newline-terminated.
public func renderJSON<Value: Encodable>(_ value: Value) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
}
