import Foundation
import Testing
import TestSupport

/// Every input of the fuzzing corpus (Tests/FuzzCorpus: the seeds, and the inputs that once
/// found a bug) replayed through the fuzz target, built beside the tests without libFuzzer:
/// none may crash it.
@Suite struct FuzzRegressionTests {
    @Test func everyCorpusInputIsReadWithoutACrash() async throws {
        let fuzzer = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("MetadataFuzzer")
        try #require(FileManager.default.isExecutableFile(atPath: fuzzer.path), "MetadataFuzzer is built beside the tests")
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("FuzzCorpus")
        var inputs: [String] = []
        for folder in ["seeds", "regressions"] {
            // An empty folder is not kept in git.
            let url = corpus.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            inputs += names.filter { !$0.hasPrefix(".") }.sorted().map { url.appendingPathComponent($0).path }
        }
        #expect(inputs.count >= 3)
        let (ended, text) = try await onAThreadOfItsOwn { [inputs] in
            let process = Process()
            process.executableURL = fuzzer
            process.arguments = inputs
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationReason == .exit && process.terminationStatus == 0, text)
        }
        #expect(ended, "\(text)")
        #expect(text.split(separator: "\n").count == inputs.count, "\(text)")
    }
}
