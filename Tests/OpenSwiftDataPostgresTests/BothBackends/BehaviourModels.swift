import Foundation
import OpenSwiftData

enum Shade: String, Codable, CaseIterable { case red, green, blue }

struct Dimensions: Codable, Equatable {
    var width: Double
    var labels: [String]
}

/// Every kind of attribute a model can have.
@Model final class Specimen {
    var flag: Bool
    var small: Int8
    var medium: Int32
    var large: Int
    var unsigned: UInt64
    var ratio: Double
    var single: Float
    var amount: Decimal
    var text: String
    var when: Date
    var link: URL
    var tag: UUID
    var bytes: Data
    var shade: Shade
    var dimensions: Dimensions
    var maybe: Int?
    var maybeText: String?
    @Attribute(.externalStorage) var attachment: Data?

    init(_ seed: Int) {
        flag = seed % 2 == 0
        small = Int8(truncatingIfNeeded: seed)
        medium = Int32(seed) * 1000
        large = seed * 1_000_000_007
        unsigned = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15
        ratio = Double(seed) / 7
        single = Float(seed) / 3
        amount = Decimal(seed) / 8
        text = "specimen \(seed)"
        when = Date(timeIntervalSinceReferenceDate: Double(seed) * 86_400.123_456_7)
        link = URL(string: "https://example.com/\(seed)?q=\(seed)")!
        tag = UUID()
        bytes = Data((0..<seed % 7).map { UInt8($0) })
        shade = Shade.allCases[seed % 3]
        dimensions = Dimensions(width: Double(seed), labels: ["a\(seed)", "b"])
        maybe = seed % 3 == 0 ? nil : seed
        maybeText = seed % 4 == 0 ? nil : "m\(seed)"
        attachment = seed % 5 == 0 ? Data(repeating: UInt8(seed % 256), count: 1000) : nil
    }
}

@Model final class Author {
    @Attribute(.unique) var name: String
    var born: Int
    @Relationship(deleteRule: .cascade, inverse: \Book.author) var books: [Book] = []
    init(name: String, born: Int) {
        self.name = name
        self.born = born
    }
}

@Model final class Book {
    var title: String
    var pages: Int
    var author: Author?
    @Relationship(deleteRule: .nullify, inverse: \Shelf.books) var shelves: [Shelf] = []
    init(title: String, pages: Int) {
        self.title = title
        self.pages = pages
    }
}

@Model final class Shelf {
    var label: String
    var books: [Book] = []
    init(label: String) { self.label = label }
}

@Model final class Archive {
    var label: String
    @Relationship(deleteRule: .deny) var items: [ArchiveItem] = []
    init(label: String) { self.label = label }
}

@Model final class ArchiveItem {
    var code: Int
    @Relationship(inverse: \Archive.items) var archive: Archive?
    init(code: Int) { self.code = code }
}

/// A class hierarchy, stored in one table.
@Model class Vehicle {
    var wheels: Int
    init(wheels: Int) { self.wheels = wheels }
}

@Model class Truck: Vehicle {
    var load: Double
    init(wheels: Int, load: Double) {
        self.load = load
        super.init(wheels: wheels)
    }
}

/// A plain record for value fuzzes.
@Model final class Sample {
    var index: Int
    var text: String
    var number: Double
    var amount: Decimal
    var when: Date
    var flag: Bool
    var maybe: Int?
    init(index: Int, text: String, number: Double, amount: Decimal, when: Date, flag: Bool, maybe: Int?) {
        self.index = index
        self.text = text
        self.number = number
        self.amount = amount
        self.when = when
        self.flag = flag
        self.maybe = maybe
    }
}

/// Two uniqueness constraints, one over two attributes, and an optional unique attribute.
@Model final class Seat {
    #Unique<Seat>([\.row, \.number], [\.code])
    var row: String
    var number: Int
    var code: String?
    var holder: String
    init(row: String, number: Int, code: String?, holder: String) {
        self.row = row
        self.number = number
        self.code = code
        self.holder = holder
    }
}
