import Foundation
import TapData
import TapMetronome

/// The reference grammar, written as regular expressions matched scalar by scalar
/// (so a combining mark never joins a digit into one `Character`).
private nonisolated(unsafe) let decimalPattern = try! Regex(#"-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?"#).matchingSemantics(.unicodeScalar)
private nonisolated(unsafe) let integerPattern = try! Regex(#"-?[0-9]+"#).matchingSemantics(.unicodeScalar)
/// Metronome numbers (tempos, shifts, jitter): a decimal of up to six places or `n/d`.
private nonisolated(unsafe) let rationalDecimalPattern = try! Regex(#"-?([0-9]+(\.[0-9]{1,6})?|\.[0-9]{1,6})"#).matchingSemantics(.unicodeScalar)
private nonisolated(unsafe) let fractionPattern = try! Regex(#"-?[0-9]+/-?[0-9]+"#).matchingSemantics(.unicodeScalar)

extension FuzzChecks {
    /// `NumberGrammar.decimal` and `.integer` accept exactly what the reference accepts, with
    /// the value Swift's own parser gives; `Rational(text)` accepts only its documented forms.
    /// The whole input is one candidate number, and so is each of its lines.
    static func numbers(_ bytes: UnsafeRawBufferPointer) -> String? {
        let input = text(bytes)
        if let problem = number(input) { return problem }
        for line in input.split(separator: "\n", omittingEmptySubsequences: true) where line.utf8.count < input.utf8.count {
            if let problem = number(String(line)) { return problem }
        }
        return nil
    }

    private static func number(_ text: String) -> String? {
        let shown = text.debugDescription
        let isDecimal = (try? decimalPattern.wholeMatch(in: text)) != nil
        let swiftValue = isDecimal ? Double(text) : nil
        switch NumberGrammar.decimal(text) {
        case let value?:
            if !isDecimal { return "decimal accepted \(shown), which the grammar refuses" }
            if !value.isFinite { return "decimal \(shown) read as \(value)" }
            if value != swiftValue { return "decimal \(shown) read as \(value), not \(String(describing: swiftValue))" }
        case nil:
            if let swiftValue, swiftValue.isFinite { return "decimal refused \(shown), a finite number in the grammar" }
        }

        let isInteger = (try? integerPattern.wholeMatch(in: text)) != nil
        let intValue = isInteger ? Int(text) : nil
        switch NumberGrammar.integer(text) {
        case let value?:
            if !isInteger { return "integer accepted \(shown), which the grammar refuses" }
            if value != intValue { return "integer \(shown) read as \(value), not \(String(describing: intValue))" }
        case nil:
            if intValue != nil { return "integer refused \(shown), which fits 64 bits" }
        }

        if let value = Rational(text) {
            if value.denominator <= 0 { return "rational \(shown) has denominator \(value.denominator)" }
            let isFraction = (try? fractionPattern.wholeMatch(in: text)) != nil
            let isShortDecimal = (try? rationalDecimalPattern.wholeMatch(in: text)) != nil
            if !isFraction && !isShortDecimal { return "rational accepted \(shown), which is neither n/d nor a decimal of up to 6 places" }
            if isShortDecimal, let expected = Double(text), abs(value.doubleValue - expected) > 1e-9 * max(1, abs(expected)) {
                return "rational \(shown) read as \(value)"
            }
        }
        return nil
    }
}
