import ArgumentParser
import Foundation
import OpenSwiftData
import OpenSwiftDataPostgres
import PixarFilmTracker

// The demo on a PostgreSQL server: version 3's films saved and queried there, from async code.
extension Demo {
    func runOnPostgres(_ store: String) async throws {
        guard let named = PostgresConfiguration.named(store, databaseSchema: databaseSchema) else {
            throw ValidationError("--postgres takes a postgres://user:password@host:port/database URL")
        }
        let configuration = PostgresConfiguration(
            schema: Schema(versionedSchema: PixarSchemaV3.self), url: named.url, databaseSchema: named.databaseSchema)
        print("Store: the schema \(configuration.databaseSchema) of the PostgreSQL database \(named.url.path.dropFirst())")
        let container = try ModelContainer(
            for: Schema(versionedSchema: PixarSchemaV3.self), configurations: [configuration])
        // A server handler's way in: the context's work runs on the container's own threads.
        let saved = try await container.perform { context in
            try context.delete(model: PixarSchemaV3.PixarFilm.self)
            for (title, date) in DemoData.films {
                let year = Calendar(identifier: .gregorian).component(.year, from: date)
                context.insert(PixarSchemaV3.PixarFilm(title: title, releaseYear: year, releaseCountry: "US"))
            }
            try context.save()
            return try context.fetchCount(FetchDescriptor<PixarSchemaV3.PixarFilm>())
        }
        print("\nVersion 3 of the app saved \(saved) films in one transaction.")
        let recent = try await container.perform { context in
            try context.fetch(FetchDescriptor<PixarSchemaV3.PixarFilm>(
                predicate: #Predicate { $0.releaseYear >= 2010 }, sortBy: [SortDescriptor(\.releaseYear)])
            ).map { "  \($0.releaseYear)  \($0.title)" }
        }
        print("Films since 2010, oldest first (the predicate and sort run on the server):")
        for line in recent { print(line) }
        let toyStories = try await container.perform { context in
            try context.fetch(FetchDescriptor<PixarSchemaV3.PixarFilm>(
                predicate: #Predicate { $0.title.localizedStandardContains("toy story") },
                sortBy: [SortDescriptor(\.releaseYear, order: .reverse)])
            ).map { $0.title }
        }
        print("Titles containing \"toy story\", newest first (answered in memory: PostgreSQL has no localized search): \(toyStories.joined(separator: ", "))")
    }
}
