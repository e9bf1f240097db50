import Foundation
import TapTestSupport

/// |actual − expected| ≤ tolerance · max(1, |expected|)? A mixed relative/absolute check.
func isClose(_ actual: Double, _ expected: Double, relative tolerance: Double) -> Bool {
    abs(actual - expected) <= tolerance * Swift.max(1, abs(expected))
}

/// |actual − expected| ≤ tolerance · |expected|: a pure relative check.
func isRelativelyClose(_ actual: Double, _ expected: Double, _ tolerance: Double) -> Bool {
    abs(actual - expected) <= tolerance * abs(expected)
}
