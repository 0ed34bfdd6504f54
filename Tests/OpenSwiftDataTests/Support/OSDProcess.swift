import Foundation
import TestSupport

/// The `osd` tool, built beside the tests, run as a separate process: how tests get a store
/// that another process wrote, or a migration that another process was killed in.
enum OSDProcess {
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("osd")
    }

    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: executable.path) }

    /// Runs `osd` with `arguments`, killing it after `delay` seconds if one is given; returns its
    /// exit status (or the signal that ended it) and whether a signal did.
    @discardableResult
    static func run(
        _ arguments: [String], killAfter delay: Double? = nil, output: Pipe? = nil, errors: Pipe? = nil
    ) async throws -> (status: Int32, killed: Bool) {
        try await onAThreadOfItsOwn { try runToTheEnd(arguments, killAfter: delay, output: output, errors: errors) }
    }

    /// Runs `osd` with `arguments` to the end; returns its exit status, standard output and
    /// standard error.
    static func capture(_ arguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
        try await onAThreadOfItsOwn { try captureToTheEnd(arguments) }
    }

    private static func runToTheEnd(
        _ arguments: [String], killAfter delay: Double?, output: Pipe?, errors: Pipe?
    ) throws -> (status: Int32, killed: Bool) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = errors ?? FileHandle.nullDevice
        try process.run()
        if let delay {
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal)
    }

    private static func captureToTheEnd(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let output = Pipe()
        let errors = Pipe()
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read before waiting: a full pipe would stop the process.
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}
