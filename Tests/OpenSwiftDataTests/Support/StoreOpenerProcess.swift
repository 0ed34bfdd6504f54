import Foundation
import TestSupport

/// The `StoreOpener` helper, built beside the tests, run as a separate process that opens a
/// ledger store as an app or its extension would; its lines of output are gathered as it runs.
final class StoreOpenerProcess: @unchecked Sendable {
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("StoreOpener")
    }

    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: executable.path) }

    private let process = Process()
    private let output = Pipe()
    private let input = Pipe()
    private let lock = NSLock()
    private var text = ""
    private let outputEnded = DispatchSemaphore(value: 0)

    /// Starts `StoreOpener <command> <store> [rows]`. `holdingInStage` makes the custom stage
    /// write `holding` and wait for a line on its standard input (``send(_:)``,
    /// ``closeInput()``) before going on: the migration lasts until the test has started
    /// another process, or killed this one, whatever the machine's load. `failingInStage`
    /// makes the stage throw (once it goes on), as a plan refusing the rows would.
    init(_ command: String, store: URL, rows: Int? = nil, holdingInStage: Bool = false, failingInStage: Bool = false) throws {
        process.executableURL = Self.executable
        process.arguments = [command, store.path] + (rows.map { ["\($0)"] } ?? [])
        var environment = ProcessInfo.processInfo.environment
        if failingInStage { environment["STORE_OPENER_FAIL_IN_STAGE"] = "1" }
        if holdingInStage { environment["STORE_OPENER_HOLD_IN_STAGE"] = "1" }
        process.environment = environment
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        // One reader to the end of the output, so that `finish()` has every line: a
        // readability handler could still hold the last line when the process had ended.
        let reader = output.fileHandleForReading
        Thread.detachNewThread { [self] in
            while case let data = reader.availableData, !data.isEmpty {
                lock.withLock { text += String(decoding: data, as: UTF8.self) }
            }
            outputEnded.signal()
        }
    }

    /// The lines written so far.
    var lines: [String] {
        lock.withLock { text.split(separator: "\n").map(String.init) }
    }

    /// Waits until a line starting with `prefix` has been written (or the process has ended, or
    /// `timeout` seconds have passed); returns it.
    @discardableResult
    func waitForLine(startingWith prefix: String, timeout: TimeInterval = 60) async -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = lines.first(where: { $0.hasPrefix(prefix) }) { return line }
            if !process.isRunning {
                // Its last output may still be on its way through the pipe.
                await outputHasEnded()
                return lines.first { $0.hasPrefix(prefix) }
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return nil
    }

    /// Writes a line to the process's standard input.
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Ends the process's standard input: a command reading lines then finishes.
    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
    }

    /// Waits for the process to end; returns its exit status and every line it wrote.
    func finish() async -> (status: Int32, lines: [String]) {
        await outputHasEnded()
        return await onAThreadOfItsOwn { [self] in
            process.waitUntilExit()
            return (process.terminationStatus, lines)
        }
    }

    /// Waits until the reader has every byte the process wrote.
    private func outputHasEnded() async {
        await onAThreadOfItsOwn { [self] in
            outputEnded.wait()
            outputEnded.signal()
        }
    }
}
