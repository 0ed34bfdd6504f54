import Foundation
import OpenSwiftData

enum Genre: String, Codable, CaseIterable {
    case animation, drama, comedy
}

enum Priority: Int, Codable {
    case low = 1, high = 9
}

struct Address: Codable, Hashable {
    var street: String
    var city: String
    var zip: Int?
}

enum Payment: Codable, Hashable {
    case cash
    case card(last4: String)
}

/// A model with an attribute of every supported type, each with a default.
@Model
final class EveryType {
    var bool: Bool = false
    var int: Int = 0
    var int8: Int8 = 0
    var int16: Int16 = 0
    var int32: Int32 = 0
    var int64: Int64 = 0
    var uint: UInt = 0
    var uint8: UInt8 = 0
    var uint16: UInt16 = 0
    var uint32: UInt32 = 0
    var uint64: UInt64 = 0
    var double: Double = 0
    var float: Float = 0
    var decimal: Decimal = 0
    var string: String = ""
    var date: Date = Date(timeIntervalSinceReferenceDate: 0)
    var data: Data = Data()
    var url: URL = URL(string: "https://example.com")!
    var uuid: UUID = UUID()
    var genre: Genre = .animation
    var priority: Priority = .low
    var address: Address = Address(street: "", city: "")
    var payment: Payment = .cash
    var tags: [String] = []
    var scores: [String: Int] = [:]
    var addresses: [Address] = []
    var optionalInt: Int?
    var optionalString: String?
    var optionalDate: Date?
    var optionalUUID: UUID?
    var optionalGenre: Genre?
    var optionalAddress: Address?
    var optionalData: Data?
    var optionalDecimal: Decimal?

    init() {}
}

@Model
final class Movie {
    #Index<Movie>([\.year], [\.title, \.year])
    var id: UUID
    var title: String
    var year: Int
    var rating: Double
    var notes: String?
    var genre: Genre
    var released: Date

    init(title: String, year: Int, rating: Double, notes: String? = nil, genre: Genre = .animation) {
        id = UUID()
        self.title = title
        self.year = year
        self.rating = rating
        self.notes = notes
        self.genre = genre
        released = Date(timeIntervalSinceReferenceDate: Double(year - 2001) * 365.25 * 86_400)
    }
}

@Model
final class Person {
    #Unique<Person>([\.email], [\.givenName, \.familyName])
    var email: String
    var givenName: String
    var familyName: String
    var age: Int

    init(email: String, givenName: String, familyName: String, age: Int) {
        self.email = email
        self.givenName = givenName
        self.familyName = familyName
        self.age = age
    }
}

/// A unique code, bytes kept outside the table and a to-one relationship: an upsert must carry
/// all three over to the stored row.
@Model
final class Poster {
    @Attribute(.unique) var code: String
    @Attribute(.externalStorage) var image: Data
    var movie: Movie?

    init(code: String, image: Data, movie: Movie?) {
        self.code = code
        self.image = image
        self.movie = movie
    }
}

@Model
final class Tag {
    @Attribute(.unique) var name: String
    var uses: Int = 0

    init(name: String, uses: Int = 0) {
        self.name = name
        self.uses = uses
    }
}

@Model
final class Photo {
    var name: String
    @Attribute(.externalStorage) var image: Data
    @Attribute(.externalStorage) var thumbnail: Data?

    init(name: String, image: Data, thumbnail: Data? = nil) {
        self.name = name
        self.image = image
        self.thumbnail = thumbnail
    }
}

@Model
final class Counter {
    var name: String
    @Transient var scratch: Int = 0
    var shouted: String { name.uppercased() }

    init(name: String) {
        self.name = name
    }
}

@Model
final class Note {
    @Attribute(originalName: "body", hashModifier: "v2") var text: String
    @Attribute(.spotlight, .allowsCloudEncryption, .preserveValueOnDeletion) var title: String = "Untitled"

    init(text: String) {
        self.text = text
    }
}

/// A new folder for one test's stores, deleted when the test process exits.
func temporaryStoreURL(_ name: String = "test") -> URL {
    let folder = TemporaryFolders.root.appendingPathComponent(UUID().uuidString, isDirectory: true)
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent("\(name).store")
}

/// The folder of this test process's stores, removed with everything in it at exit.
enum TemporaryFolders {
    static let root: URL = {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("OpenSwiftDataTests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TemporaryFolders.root) }
        return root
    }()
}

/// Writes a store at `url` with these models: `fill` inserts or changes models, then they are
/// saved and the container closed, as an earlier version of an app would leave the file.
func writeStore(_ url: URL, for schema: Schema, _ fill: (ModelContext) throws -> Void) throws {
    let context = ModelContext(try ModelContainer(for: schema, configurations: ModelConfiguration(url: url)))
    try fill(context)
    try context.save()
}

func writeStore(_ url: URL, for types: any PersistentModel.Type..., fill: (ModelContext) throws -> Void) throws {
    try writeStore(url, for: Schema(types), fill)
}

/// A value that callbacks running synchronously on the test's thread can update.
final class Recorder<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// Transient properties declared together, the type written once for both.
@Model
final class Sketch {
    var title: String
    @Transient var draft, note: String?

    init(title: String) { self.title = title }
}
