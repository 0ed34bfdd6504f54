import Foundation
import OpenSwiftData

// The three versions of the film tracker of the migration articles: the demo's models, and the
// tests' stores written by a "shipped" version 1.

public enum PixarSchemaV1: VersionedSchema {
    public static let versionIdentifier = Schema.Version(1, 0, 0)
    public static var models: [any PersistentModel.Type] { [PixarFilm.self] }

    @Model public final class PixarFilm {
        public var title: String
        public var releaseDate: Date
        public init(title: String, releaseDate: Date) {
            self.title = title
            self.releaseDate = releaseDate
        }
    }
}

public enum PixarSchemaV2: VersionedSchema {
    public static let versionIdentifier = Schema.Version(2, 0, 0)
    public static var models: [any PersistentModel.Type] { [PixarFilm.self] }

    @Model public final class PixarFilm {
        public var title: String
        public var releaseYear: Int
        public var releaseCountry: String
        public init(title: String, releaseYear: Int, releaseCountry: String) {
            self.title = title
            self.releaseYear = releaseYear
            self.releaseCountry = releaseCountry
        }
    }
}

public enum PixarSchemaV3: VersionedSchema {
    public static let versionIdentifier = Schema.Version(3, 0, 0)
    public static var models: [any PersistentModel.Type] { [PixarFilm.self] }

    @Model public final class PixarFilm {
        public var title: String
        public var releaseYear: Int
        public var releaseCountry: String
        public var posterURL: URL?
        public var isAnimated: Bool = true
        public init(title: String, releaseYear: Int, releaseCountry: String) {
            self.title = title
            self.releaseYear = releaseYear
            self.releaseCountry = releaseCountry
        }
    }
}

public enum PixarMigrationPlan: SchemaMigrationPlan {
    public static var schemas: [any VersionedSchema.Type] { [PixarSchemaV1.self, PixarSchemaV2.self, PixarSchemaV3.self] }
    public static var stages: [MigrationStage] { [migrateV1toV2, migrateV2toV3] }

    /// The release date becomes a year and a country, reading old and new values in one step.
    public static let migrateV1toV2 = MigrationStage.transform(
        fromVersion: PixarSchemaV1.self, toVersion: PixarSchemaV2.self,
        model: PixarSchemaV1.PixarFilm.self, to: PixarSchemaV2.PixarFilm.self
    ) { old, new in
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        new.releaseYear = calendar.component(.year, from: old.releaseDate)
        new.releaseCountry = old.title == "Coco" ? "MX" : "US"
    }

    public static let migrateV2toV3 = MigrationStage.lightweight(fromVersion: PixarSchemaV2.self, toVersion: PixarSchemaV3.self)
}
