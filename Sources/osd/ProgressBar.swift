import Foundation
import OpenSwiftData
import Synchronization

/// A long operation's progress: on a terminal, a bar redrawn in place; otherwise a line at each
/// tenth of the way.
final class ProgressBar: Sendable {
    private let output: Int32
    private let isTerminal: Bool
    private let lastTenth = Mutex(-1)
    private let drawn = Mutex(false)

    /// A bar on standard output (the default) or standard error (for commands whose output is
    /// data).
    init(onStandardError: Bool = false) {
        output = onStandardError ? STDERR_FILENO : STDOUT_FILENO
        isTerminal = isatty(output) == 1
    }

    /// Shows a migration's progress.
    func show(_ progress: MigrationProgress) {
        let rows = progress.rowsTotal > 0 ? " \(progress.rowsDone)/\(progress.rowsTotal) rows" : ""
        show(progress.fractionCompleted, "step \(progress.step)/\(progress.stepCount) \(progress.phase.rawValue)\(rows)", line: "\(progress)")
    }

    /// Shows `fraction` (0 to 1) with `text` beside the bar, or `line` alone when not on a terminal.
    func show(_ fraction: Double, _ text: String, line: String? = nil) {
        if isTerminal {
            let width = 30
            let filled = min(width, max(0, Int(fraction * Double(width))))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            write("\r\u{1B}[K\(bar) \(Int(fraction * 100))%  \(text)")
            drawn.withLock { $0 = true }
        } else {
            let tenth = Int(fraction * 10)
            let isNew = lastTenth.withLock { last in
                defer { last = max(last, tenth) }
                return tenth > last
            }
            if isNew { write("\(tenth * 10)%: \(line ?? text)\n") }
        }
    }

    /// Ends the bar's line.
    func end() {
        if drawn.withLock({ $0 }) { write("\n") }
    }

    private func write(_ text: String) {
        (output == STDERR_FILENO ? FileHandle.standardError : FileHandle.standardOutput).write(Data(text.utf8))
    }
}
