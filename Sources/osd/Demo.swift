import ArgumentParser
import Foundation
import OpenSwiftData

/// `osd demo`: writes a store, closes it, opens it again and queries it, saying what it does.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a store of Pixar films on disk, reopen it and query it.")

    @Option(help: "Where to write the store (default: a new temporary folder).")
    var store: String?

    func run() throws {
        let url = store.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory
                .appendingPathComponent("osd-demo-\(UUID().uuidString)", isDirectory: true)
                .appendingPathComponent("films.store")
        print("Store: \(url.path)")

        do {
            let container = try ModelContainer(for: Film.self, configurations: ModelConfiguration(url: url))
            let context = ModelContext(container)
            for film in DemoData.films {
                context.insert(film)
            }
            try context.save()
            print("Wrote \(DemoData.films.count) films and closed the store.")
        }

        let container = try ModelContainer(for: Film.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        print("Reopened it: \(try context.fetchCount(FetchDescriptor<Film>())) films stored.")

        let since2000 = FetchDescriptor<Film>(
            predicate: #Predicate { $0.releaseYear >= 2000 && $0.rating >= 8.0 },
            sortBy: [SortDescriptor(\.releaseYear)])
        print("Films since 2000 rated 8 or more, oldest first:")
        for film in try context.fetch(since2000) {
            print("  \(film.releaseYear)  \(film.title)  (\(film.rating))")
        }

        let toyStories = try context.fetch(FetchDescriptor<Film>(
            predicate: #Predicate { $0.title.localizedStandardContains("toy story") },
            sortBy: [SortDescriptor(\.releaseYear, order: .reverse)]))
        print("Titles containing \"toy story\", newest first: \(toyStories.map(\.title).joined(separator: ", "))")
    }
}

@Model
final class Film {
    #Unique<Film>([\.title])
    var title: String
    var releaseYear: Int
    var rating: Double
    var studio: String = "Pixar"

    init(title: String, releaseYear: Int, rating: Double) {
        self.title = title
        self.releaseYear = releaseYear
        self.rating = rating
    }
}

enum DemoData {
    static var films: [Film] {
        [
            Film(title: "Toy Story", releaseYear: 1995, rating: 8.3),
            Film(title: "A Bug's Life", releaseYear: 1998, rating: 7.2),
            Film(title: "Toy Story 2", releaseYear: 1999, rating: 7.9),
            Film(title: "Monsters, Inc.", releaseYear: 2001, rating: 8.1),
            Film(title: "Finding Nemo", releaseYear: 2003, rating: 8.2),
            Film(title: "The Incredibles", releaseYear: 2004, rating: 8.0),
            Film(title: "Cars", releaseYear: 2006, rating: 7.2),
            Film(title: "Ratatouille", releaseYear: 2007, rating: 8.1),
            Film(title: "WALL·E", releaseYear: 2008, rating: 8.4),
            Film(title: "Up", releaseYear: 2009, rating: 8.3),
            Film(title: "Toy Story 3", releaseYear: 2010, rating: 8.3),
            Film(title: "Inside Out", releaseYear: 2015, rating: 8.1),
            Film(title: "Coco", releaseYear: 2017, rating: 8.4),
            Film(title: "Toy Story 4", releaseYear: 2019, rating: 7.7),
        ]
    }
}
