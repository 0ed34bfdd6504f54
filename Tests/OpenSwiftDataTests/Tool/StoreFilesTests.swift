import Foundation
import PixarFilmTracker
import Testing
@testable import OpenSwiftData

/// A backup taken while another container saves is one consistent snapshot of the store.
@Suite struct StoreFilesTests {
    @Test func aBackupWhileAnotherContainerSavesHoldsWholeSavesOnly() async throws {
        let url = temporaryStoreURL("films")
        let schema = Schema(versionedSchema: PixarSchemaV3.self)
        try writeStore(url, for: schema) { _ in }
        let batch = 500
        let writer = Thread {
            guard let container = try? ModelContainer(for: schema, configurations: ModelConfiguration(url: url)) else { return }
            let context = ModelContext(container)
            for saves in 0..<40 {
                for number in 0..<batch {
                    context.insert(PixarSchemaV3.PixarFilm(title: "Short \(saves)-\(number)", releaseYear: 2000, releaseCountry: "US"))
                }
                try? context.save()
            }
        }
        writer.start()
        var counts: [Int] = []
        for copy in 0..<6 {
            let destination = url.deletingLastPathComponent().appendingPathComponent("copy-\(copy).store")
            try StoreFiles.backup(storeAt: url, to: destination)
            #expect(try StoreInspection.problems(inStoreAt: destination).isEmpty)
            counts.append(try StoreInspection(storeAt: destination).entities[0].rows)
        }
        while writer.isExecuting || !writer.isFinished { try await Task.sleep(for: .milliseconds(10)) }
        // Each save is one transaction of `batch` films: a copy holds whole saves, none in part.
        #expect(counts.allSatisfy { $0 % batch == 0 })
        #expect(counts == counts.sorted())
        #expect(try StoreInspection(storeAt: url).entities[0].rows == 40 * batch)
    }
}
