import Foundation
import OpenSwiftData

// Models with every kind of attribute and relationship the tester's generated rows must fill.

enum Hue: String, Codable, CaseIterable {
    case red, green, blue
}

struct Dimensions: Codable, Hashable {
    var width: Double
    var height: Double
}

enum GalleryV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Painting.self, Artist.self, Exhibition.self] }

    @Model final class Painting {
        @Attribute(.unique) var code: String
        var year: Int
        var price: Double
        var rating: Float
        var isFramed: Bool
        var acquired: Date
        var thumbnail: Data
        var identifier: UUID
        var link: URL
        var hue: Hue
        var tags: [String]
        var caption: String?
        var weight: Int?
        var size: Dimensions
        var artist: Artist?
        @Relationship(inverse: \Exhibition.paintings) var exhibitions: [Exhibition] = []
        init(code: String, year: Int, price: Double, rating: Float, isFramed: Bool, acquired: Date, thumbnail: Data,
             identifier: UUID, link: URL, hue: Hue, tags: [String], size: Dimensions) {
            self.code = code
            self.year = year
            self.price = price
            self.rating = rating
            self.isFramed = isFramed
            self.acquired = acquired
            self.thumbnail = thumbnail
            self.identifier = identifier
            self.link = link
            self.hue = hue
            self.tags = tags
            self.size = size
        }
    }

    @Model final class Artist {
        var name: String
        @Relationship(deleteRule: .cascade, inverse: \Painting.artist) var paintings: [Painting] = []
        init(name: String) { self.name = name }
    }

    @Model final class Exhibition {
        var title: String
        var paintings: [Painting] = []
        init(title: String) { self.title = title }
    }
}

enum GalleryV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Painting.self, Artist.self, Exhibition.self] }

    @Model final class Painting {
        @Attribute(.unique) var code: String
        var year: Int
        var price: Double
        var rating: Float
        var isFramed: Bool
        var acquired: Date
        var thumbnail: Data
        var identifier: UUID
        var link: URL
        var hue: Hue
        var tags: [String]
        @Attribute(originalName: "caption") var label: String?
        var weight: Int?
        var size: Dimensions
        var room: String?
        var artist: Artist?
        @Relationship(inverse: \Exhibition.paintings) var exhibitions: [Exhibition] = []
        init(code: String, year: Int, price: Double, rating: Float, isFramed: Bool, acquired: Date, thumbnail: Data,
             identifier: UUID, link: URL, hue: Hue, tags: [String], size: Dimensions) {
            self.code = code
            self.year = year
            self.price = price
            self.rating = rating
            self.isFramed = isFramed
            self.acquired = acquired
            self.thumbnail = thumbnail
            self.identifier = identifier
            self.link = link
            self.hue = hue
            self.tags = tags
            self.size = size
        }
    }

    @Model final class Artist {
        var name: String
        @Relationship(deleteRule: .cascade, inverse: \Painting.artist) var paintings: [Painting] = []
        init(name: String) { self.name = name }
    }

    @Model final class Exhibition {
        var title: String
        var paintings: [Painting] = []
        init(title: String) { self.title = title }
    }
}

enum GalleryPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [GalleryV1.self, GalleryV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: GalleryV1.self, toVersion: GalleryV2.self)] }
}
