import ArgumentParser
import TapData

/// Reads a command-line number with TapKit's one number grammar (Docs/file-formats.md):
/// `inf`, `nan`, `+2.5` and `0x1p1`, which Swift's `Double(String)` takes, are refused.
/// Use as `@Option(help: …, transform: strictDecimal)`.
func strictDecimal(_ text: String) throws -> Double {
    guard let value = NumberGrammar.decimal(text) else {
        throw ValidationError("'\(text)' is not a decimal number (such as 12, -3.5 or 2e-3)")
    }
    return value
}
