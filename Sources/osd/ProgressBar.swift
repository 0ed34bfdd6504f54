import Foundation
import OpenSwiftData
import Synchronization

/// A migration's progress on the terminal: a bar redrawn in place, or, when standard output is
/// not a terminal, a line at each tenth of the way.
final class ProgressBar: Sendable {
    private let isTerminal = isatty(STDOUT_FILENO) == 1
    private let lastTenth = Mutex(-1)
    private let drawn = Mutex(false)

    func show(_ progress: MigrationProgress) {
        let fraction = progress.fractionCompleted
        if isTerminal {
            let width = 30
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            let rows = progress.rowsTotal > 0 ? " \(progress.rowsDone)/\(progress.rowsTotal) rows" : ""
            FileHandle.standardOutput.write(Data("\r\u{1B}[K\(bar) \(Int(fraction * 100))%  step \(progress.step)/\(progress.stepCount) \(progress.phase.rawValue)\(rows)".utf8))
            drawn.withLock { $0 = true }
        } else {
            let tenth = Int(fraction * 10)
            let isNew = lastTenth.withLock { last in
                defer { last = max(last, tenth) }
                return tenth > last
            }
            if isNew { print("migration \(tenth * 10)%: \(progress)") }
        }
    }

    /// Ends the bar's line.
    func end() {
        if drawn.withLock({ $0 }) { print("") }
    }
}
