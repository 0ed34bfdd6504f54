import Foundation
import OpenSwiftData

// The three versions of the demo's film tracker, as the migration articles write them.

enum PixarSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [PixarFilm.self] }

    @Model final class PixarFilm {
        var title: String
        var releaseDate: Date
        init(title: String, releaseDate: Date) {
            self.title = title
            self.releaseDate = releaseDate
        }
    }
}

enum PixarSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [PixarFilm.self] }

    @Model final class PixarFilm {
        var title: String
        var releaseYear: Int
        var releaseCountry: String
        init(title: String, releaseYear: Int, releaseCountry: String) {
            self.title = title
            self.releaseYear = releaseYear
            self.releaseCountry = releaseCountry
        }
    }
}

enum PixarSchemaV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [PixarFilm.self] }

    @Model final class PixarFilm {
        var title: String
        var releaseYear: Int
        var releaseCountry: String
        var posterURL: URL?
        var isAnimated: Bool = true
        init(title: String, releaseYear: Int, releaseCountry: String) {
            self.title = title
            self.releaseYear = releaseYear
            self.releaseCountry = releaseCountry
        }
    }
}

enum PixarMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PixarSchemaV1.self, PixarSchemaV2.self, PixarSchemaV3.self] }
    static var stages: [MigrationStage] { [migrateV1toV2, migrateV2toV3] }

    /// The release date becomes a year and a country, reading old and new values in one step.
    static let migrateV1toV2 = MigrationStage.transform(
        fromVersion: PixarSchemaV1.self, toVersion: PixarSchemaV2.self,
        model: PixarSchemaV1.PixarFilm.self, to: PixarSchemaV2.PixarFilm.self
    ) { old, new in
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        new.releaseYear = calendar.component(.year, from: old.releaseDate)
        new.releaseCountry = old.title == "Coco" ? "MX" : "US"
    }

    static let migrateV2toV3 = MigrationStage.lightweight(fromVersion: PixarSchemaV2.self, toVersion: PixarSchemaV3.self)
}
