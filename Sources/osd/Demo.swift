import ArgumentParser
import Foundation
import Logging
import OpenSwiftData
import PixarFilmTracker

/// `osd demo`: the Pixar film tracker of the migration articles. Version 1 of the app writes a
/// store on disk; version 3 opens it, migrating it through a typed transform stage (the release
/// date split into year and country) and a lightweight one (a poster URL and a flag added), and
/// queries it, after a dry run of the migration on a copy. Every step is printed.
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a version 1 store of Pixar films, open it with version 3 of the app, and query it.")

    enum Step: String, ExpressibleByArgument, CaseIterable {
        case all, writeV1 = "write-v1", openV3 = "open-v3"
    }

    @Option(help: "Where to write the store (default: a new temporary folder).")
    var store: String?

    @Option(help: "Which part to run: all, write-v1 or open-v3.")
    var step: Step = .all

    @Option(help: "How many made-up films, all released before 2000, to add to the real ones, to try a large store.")
    var extraFilms: Int = 0

    @Flag(inversion: .prefixedNo, help: "Preview the migration on a copy before version 3 opens the store.")
    var preview = true

    @Flag(help: "Print the process's peak memory at the end (Linux).")
    var reportPeakMemory = false

    @Option(help: "Run the demo on a PostgreSQL server instead (postgres://user:password@host:port/database): version 3's films saved and queried there.")
    var postgres: String?

    @Option(help: "The PostgreSQL schema the demo's tables live in, with --postgres.")
    var databaseSchema = "osd_demo"

    func run() async throws {
        if let postgres {
            try await runOnPostgres(postgres)
            return
        }
        // The migration's steps are logged at debug level: show them.
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardOutput(label: label)
            handler.logLevel = .debug
            return handler
        }
        let url = store.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory
                .appendingPathComponent("osd-demo-\(UUID().uuidString)", isDirectory: true)
                .appendingPathComponent("films.store")
        print("Store: \(url.path)")
        if step != .openV3 { try writeVersion1(url) }
        if step != .writeV1 { try openWithVersion3(url) }
        if reportPeakMemory, let peak = PeakMemory.kilobytes {
            print("\nPeak memory: \(peak / 1024) MB")
        }
    }

    private func writeVersion1(_ url: URL) throws {
        let container = try ModelContainer(
            for: Schema(versionedSchema: PixarSchemaV1.self), configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        for (title, date) in DemoData.films {
            context.insert(PixarSchemaV1.PixarFilm(title: title, releaseDate: date))
        }
        for number in 0..<extraFilms {
            context.insert(PixarSchemaV1.PixarFilm(
                title: "Short #\(number)", releaseDate: Date(timeIntervalSinceReferenceDate: -Double(number + 400) * 86_400)))
            if number % 10_000 == 9_999 { try context.save() }
        }
        try context.save()
        print("\nVersion 1 of the app wrote \(DemoData.films.count + extraFilms) films (title, release date):")
        var oldest = FetchDescriptor<PixarSchemaV1.PixarFilm>(
            predicate: #Predicate { !$0.title.starts(with: "Short #") }, sortBy: [SortDescriptor(\.releaseDate)])
        oldest.fetchLimit = 5
        for film in try context.fetch(oldest) {
            print("  \(film.title)  \(film.releaseDate.formatted(.iso8601.year().month().day()))")
        }
    }

    private func openWithVersion3(_ url: URL) throws {
        if preview {
            print("\nVersion 3 of the app first previews the migration on a copy (ModelContainer.previewMigration):")
            print(try ModelContainer.previewMigration(
                for: Schema(versionedSchema: PixarSchemaV3.self), migrationPlan: PixarMigrationPlan.self,
                configurations: ModelConfiguration(url: url)))
        }
        print("\nVersion 3 of the app opens the store with PixarMigrationPlan:")
        let bar = ProgressBar()
        let container = try ModelContainer(
            for: Schema(versionedSchema: PixarSchemaV3.self), migrationPlan: PixarMigrationPlan.self,
            configurations: [ModelConfiguration(url: url)]) { progress in bar.show(progress) }
        bar.end()
        let context = ModelContext(container)
        print("\nThe store now holds \(try context.fetchCount(FetchDescriptor<PixarSchemaV3.PixarFilm>())) films (title, year, country, animated):")
        let recent = FetchDescriptor<PixarSchemaV3.PixarFilm>(
            predicate: #Predicate { $0.releaseYear >= 2000 && $0.releaseCountry == "US" },
            sortBy: [SortDescriptor(\.releaseYear)])
        print("Films since 2000 set in the US, oldest first:")
        for film in try context.fetch(recent) {
            print("  \(film.releaseYear)  \(film.title)  \(film.releaseCountry)  \(film.isAnimated)")
        }
        let toyStories = try context.fetch(FetchDescriptor<PixarSchemaV3.PixarFilm>(
            predicate: #Predicate { $0.title.localizedStandardContains("toy story") },
            sortBy: [SortDescriptor(\.releaseYear, order: .reverse)]))
        print("Titles containing \"toy story\", newest first: \(toyStories.map(\.title).joined(separator: ", "))")
    }
}

enum DemoData {
    /// The real films, with their US release dates.
    static var films: [(String, Date)] {
        let calendar = Calendar(identifier: .gregorian)
        func date(_ year: Int, _ month: Int, _ day: Int) -> Date {
            var components = DateComponents(year: year, month: month, day: day, hour: 12)
            components.timeZone = TimeZone(identifier: "UTC")
            return calendar.date(from: components)!
        }
        return [
            ("Toy Story", date(1995, 11, 22)), ("A Bug's Life", date(1998, 11, 25)),
            ("Toy Story 2", date(1999, 11, 24)), ("Monsters, Inc.", date(2001, 11, 2)),
            ("Finding Nemo", date(2003, 5, 30)), ("The Incredibles", date(2004, 11, 5)),
            ("Cars", date(2006, 6, 9)), ("Ratatouille", date(2007, 6, 29)),
            ("WALL·E", date(2008, 6, 27)), ("Up", date(2009, 5, 29)),
            ("Toy Story 3", date(2010, 6, 18)), ("Inside Out", date(2015, 6, 19)),
            ("Coco", date(2017, 11, 22)), ("Toy Story 4", date(2019, 6, 21)),
        ]
    }
}

/// The process's peak resident memory, read from `/proc/self/status` where Linux provides it.
enum PeakMemory {
    static var kilobytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "")
        }
        return nil
    }
}
