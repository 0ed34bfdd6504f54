import Foundation
import OpenSwiftData

@Model final class Shelf {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \Book.shelf) var books: [Book] = []
    init(name: String) { self.name = name }
}

@Model final class Book {
    var title: String
    var pages: Int
    var shelf: Shelf?
    init(title: String, pages: Int, shelf: Shelf? = nil) {
        self.title = title
        self.pages = pages
        self.shelf = shelf
    }
}

@Model final class Student {
    var name: String
    var courses: [Course] = []
    init(name: String) { self.name = name }
}

@Model final class Course {
    var title: String
    @Relationship(inverse: \Student.courses) var students: [Student] = []
    init(title: String) { self.title = title }
}

@Model final class Writer {
    var name: String
    var essays: [Essay] = []
    init(name: String) { self.name = name }
}

@Model final class Essay {
    var title: String
    var writer: Writer?
    init(title: String) { self.title = title }
}

@Model final class Library {
    var name: String
    @Relationship(deleteRule: .deny) var members: [Member] = []
    init(name: String) { self.name = name }
}

@Model final class Member {
    var name: String
    var library: Library?
    init(name: String) { self.name = name }
}

@Model final class Country {
    var name: String
    @Relationship(deleteRule: .cascade) var cities: [City] = []
    init(name: String) { self.name = name }
}

@Model final class City {
    var name: String
    var country: Country?
    @Relationship(deleteRule: .cascade) var streets: [Street] = []
    init(name: String) { self.name = name }
}

@Model final class Street {
    var name: String
    var city: City?
    init(name: String) { self.name = name }
}

/// A store of four countries of five cities of three streets each, named `C<country>-<city>-<street>`.
func countryStore() throws -> URL {
    let url = temporaryStoreURL()
    try writeStore(url, for: Country.self) { context in
        for countryNumber in 0..<4 {
            let country = Country(name: "C\(countryNumber)")
            country.cities = (0..<5).map { cityNumber in
                let city = City(name: "C\(countryNumber)-\(cityNumber)")
                city.streets = (0..<3).map { Street(name: "C\(countryNumber)-\(cityNumber)-\($0)") }
                return city
            }
            context.insert(country)
        }
    }
    return url
}

/// A folder tree: deleting a folder deletes what it holds, level after level.
@Model final class Folder {
    var name: String
    var parent: Folder?
    @Relationship(deleteRule: .cascade, inverse: \Folder.parent) var subfolders: [Folder] = []
    init(name: String, parent: Folder? = nil) {
        self.name = name
        self.parent = parent
    }
}

@Model final class Playlist {
    var name: String
    @Relationship(inverse: nil) var songs: [Song] = []
    var favorite: Song?
    init(name: String) { self.name = name }
}

@Model final class Song {
    var title: String
    init(title: String) { self.title = title }
}

/// An account whose logins cannot be without it (`Login.account` is not optional) and that
/// keeps the default `.nullify` rule: deleting an account that has logins is refused.
@Model final class Account {
    var name: String
    @Relationship(inverse: \Login.account) var logins: [Login] = []
    init(name: String) { self.name = name }
}

@Model final class Login {
    var at: Int
    var account: Account
    init(at: Int, account: Account) {
        self.at = at
        self.account = account
    }
}

@Model final class Team {
    var name: String
    @Relationship(minimumModelCount: 1, maximumModelCount: 2) var players: [Player] = []
    init(name: String) { self.name = name }
}

@Model final class Player {
    var name: String
    var team: Team?
    init(name: String) { self.name = name }
}

/// A film unique by title and director, for upserts whose key includes a relationship.
@Model final class DirectedFilm {
    #Unique<DirectedFilm>([\.title, \.director])
    var title: String
    @Relationship(inverse: nil) var director: FilmDirector?
    init(title: String, director: FilmDirector? = nil) {
        self.title = title
        self.director = director
    }
}

@Model final class FilmDirector {
    var name: String
    init(name: String) { self.name = name }
}

/// A model class that is not final, and a subclass of it: what a relationship to `Vehicle` may hold.
@Model class Vehicle {
    var name: String
    init(name: String) { self.name = name }
}

final class Car: Vehicle {}
