import Foundation
import OpenSwiftData
import PixarFilmTracker

// The Pixar film tracker of the seeds, V1 to V3, is the demo's own (`Sources/PixarFilmTracker/PixarSchemas.swift`):
// tests open the stores `osd demo` writes, so they use its models. The tests' plan bridges V1 to V2
// with a custom stage, where the demo uses a transform.

/// What willMigrate hands to didMigrate in the seed's V1 → V2 stage.
let pixarBridge = Recorder<[String: Int]>([:])

enum PixarCustomStagePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PixarSchemaV1.self, PixarSchemaV2.self, PixarSchemaV3.self] }
    static var stages: [MigrationStage] { [migrateV1toV2, migrateV2toV3] }

    static let migrateV1toV2 = MigrationStage.custom(
        fromVersion: PixarSchemaV1.self,
        toVersion: PixarSchemaV2.self,
        willMigrate: { context in
            var years: [String: Int] = [:]
            for film in try context.fetch(FetchDescriptor<PixarSchemaV1.PixarFilm>()) {
                years[film.title] = Calendar(identifier: .gregorian).component(.year, from: film.releaseDate)
            }
            pixarBridge.value = years
        },
        didMigrate: { context in
            for film in try context.fetch(FetchDescriptor<PixarSchemaV2.PixarFilm>()) {
                film.releaseYear = pixarBridge.value[film.title] ?? 0
                film.releaseCountry = "US"
            }
            try context.save()
        })

    static let migrateV2toV3 = MigrationStage.lightweight(fromVersion: PixarSchemaV2.self, toVersion: PixarSchemaV3.self)
}

// Budgets: V2 adds a non-optional description that a custom stage fills from the name.

enum BudgetSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Budget.self] }
    @Model final class Budget {
        var name: String
        var limit: Double
        init(name: String, limit: Double) {
            self.name = name
            self.limit = limit
        }
    }
}

enum BudgetSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Budget.self] }
    @Model final class Budget {
        #Unique<Budget>([\.name])
        var name: String
        var limit: Double
        var desc: String
        init(name: String, limit: Double, desc: String) {
            self.name = name
            self.limit = limit
            self.desc = desc
        }
    }
}

enum BudgetMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [BudgetSchemaV1.self, BudgetSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.custom(
            fromVersion: BudgetSchemaV1.self, toVersion: BudgetSchemaV2.self,
            willMigrate: { context in
                // De-duplicate before the unique constraint arrives: keep the largest limit.
                var kept: [String: BudgetSchemaV1.Budget] = [:]
                for budget in try context.fetch(FetchDescriptor<BudgetSchemaV1.Budget>(sortBy: [SortDescriptor(\.limit, order: .reverse)])) {
                    if kept[budget.name] == nil { kept[budget.name] = budget } else { context.delete(budget) }
                }
                try context.save()
            },
            didMigrate: { context in
                for budget in try context.fetch(FetchDescriptor<BudgetSchemaV2.Budget>()) {
                    budget.desc = "Budget for \(budget.name)"
                }
                try context.save()
            })]
    }
}

/// The same plan without the de-duplicating willMigrate.
enum BudgetPlanWithoutDeduplication: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [BudgetSchemaV1.self, BudgetSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.custom(fromVersion: BudgetSchemaV1.self, toVersion: BudgetSchemaV2.self, willMigrate: nil, didMigrate: { context in
            for budget in try context.fetch(FetchDescriptor<BudgetSchemaV2.Budget>()) { budget.desc = budget.name }
        })]
    }
}

struct StageFailure: Error, CustomStringConvertible {
    var description: String { "the stage gave up" }
}

enum FailingBudgetPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [BudgetSchemaV1.self, BudgetSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.custom(
            fromVersion: BudgetSchemaV1.self, toVersion: BudgetSchemaV2.self,
            willMigrate: { context in
                for budget in try context.fetch(FetchDescriptor<BudgetSchemaV1.Budget>()) { budget.limit = -1 }
                try context.save()
            },
            didMigrate: { _ in throw StageFailure() })]
    }
}

// The isFavorite trap: a version that only adds a property with a default has no new structure
// if it only bumps the version number.

enum NoteSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Memo.self] }
    @Model final class Memo {
        var text: String
        init(text: String) { self.text = text }
    }
}

enum NoteSchemaV1Again: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 1, 0)
    static var models: [any PersistentModel.Type] { [Memo.self] }
    @Model final class Memo {
        var text: String = ""
        init(text: String) { self.text = text }
    }
}

enum DuplicatePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NoteSchemaV1.self, NoteSchemaV1Again.self] }
    static var stages: [MigrationStage] { [] }
}

enum NoteSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Memo.self] }
    @Model final class Memo {
        @Attribute(originalName: "text") var body: String
        var isFavorite: Bool = false
        var pinnedAt: Date?
        init(body: String) { self.body = body }
    }
}

/// V2 without `pinnedAt`: a lightweight migration that drops stored values.
enum NoteSchemaV2Trimmed: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 1, 0)
    static var models: [any PersistentModel.Type] { [Memo.self] }
    @Model final class Memo {
        var body: String
        var isFavorite: Bool = false
        init(body: String) { self.body = body }
    }
}

enum NoteSchemaV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Memo.self] }
    @Model final class Memo {
        var body: String
        var priority: Int
        init(body: String) {
            self.body = body
            priority = 0
        }
    }
}

enum NotePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NoteSchemaV1.self, NoteSchemaV2.self] }
    static var stages: [MigrationStage] { [] }
}

/// The Pixar V1 → V2 split written directly, old and new values in one step.
enum PixarTransformPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PixarSchemaV1.self, PixarSchemaV2.self] }
    static let migrateV1toV2 = MigrationStage.transform(
        fromVersion: PixarSchemaV1.self, toVersion: PixarSchemaV2.self,
        model: PixarSchemaV1.PixarFilm.self, to: PixarSchemaV2.PixarFilm.self, batchSize: 2
    ) { old, new in
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        new.releaseYear = calendar.component(.year, from: old.releaseDate)
        new.releaseCountry = old.title == "Coco" ? "MX" : "US"
    }
    static var stages: [MigrationStage] { [migrateV1toV2] }
}

// The seeds' user name split: name → firstName and lastName.

enum UserSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [User.self] }
    @Model final class User {
        var name: String
        var email: String
        init(name: String, email: String) {
            self.name = name
            self.email = email
        }
    }
}

enum UserSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [User.self] }
    @Model final class User {
        var firstName: String
        var lastName: String
        var email: String
        init(firstName: String, lastName: String, email: String) {
            self.firstName = firstName
            self.lastName = lastName
            self.email = email
        }
    }
}

enum UserMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [UserSchemaV1.self, UserSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.transform(fromVersion: UserSchemaV1.self, toVersion: UserSchemaV2.self, model: UserSchemaV1.User.self, to: UserSchemaV2.User.self) { old, new in
            let parts = old.name.split(separator: " ", maxSplits: 1).map(String.init)
            new.firstName = parts.first ?? ""
            new.lastName = parts.count > 1 ? parts[1] : ""
        }]
    }
}

enum UnorderedPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NoteSchemaV2.self, NoteSchemaV1.self] }
    static var stages: [MigrationStage] { [] }
}

enum StageOutsidePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NoteSchemaV1.self, NoteSchemaV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: NoteSchemaV2.self, toVersion: NoteSchemaV3.self)] }
}

enum BackwardStagePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NoteSchemaV1.self, NoteSchemaV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: NoteSchemaV2.self, toVersion: NoteSchemaV1.self)] }
}

/// Version 1.0.0 as it shipped, then edited in place: a property with a default was added
/// without a new version.
enum EditedNoteSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Memo.self] }
    @Model final class Memo {
        var text: String
        var color: String = "yellow"
        init(text: String) { self.text = text }
    }
}

enum EditedNotePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [EditedNoteSchemaV1.self] }
    static var stages: [MigrationStage] { [] }
}

// A many-to-many relationship renamed with originalName keeps its pairs.

enum ClassSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Pupil.self, Lesson.self] }
    @Model final class Pupil {
        var name: String
        var lessons: [Lesson] = []
        init(name: String) { self.name = name }
    }
    @Model final class Lesson {
        var title: String
        @Relationship(inverse: \Pupil.lessons) var pupils: [Pupil] = []
        init(title: String) { self.title = title }
    }
}

enum ClassSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Pupil.self, Lesson.self] }
    @Model final class Pupil {
        var name: String
        @Relationship(originalName: "lessons") var classes: [Lesson] = []
        init(name: String) { self.name = name }
    }
    @Model final class Lesson {
        var title: String
        @Relationship(originalName: "pupils", inverse: \Pupil.classes) var attendees: [Pupil] = []
        init(title: String) { self.title = title }
    }
}

// Optional → non-optional with a default: stored nils take the default.

enum CounterSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Tally.self] }
    @Model final class Tally {
        var name: String
        var count: Int?
        init(name: String, count: Int?) {
            self.name = name
            self.count = count
        }
    }
}

enum CounterSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Tally.self] }
    @Model final class Tally {
        var name: String
        var count: Int = 7
        init(name: String) { self.name = name }
    }
}

enum CounterSchemaV2WithoutDefault: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Tally.self] }
    @Model final class Tally {
        var name: String
        var count: Int
        init(name: String) {
            self.name = name
            count = 0
        }
    }
}

/// A member with a unique handle and an index on its name, before and after gaining a nickname.
enum MemberSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Member.self] }
    @Model final class Member {
        #Index<Member>([\.name])
        @Attribute(.unique) var handle: String
        var name: String
        init(handle: String, name: String) {
            self.handle = handle
            self.name = name
        }
    }
}

enum MemberSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Member.self] }
    @Model final class Member {
        #Index<Member>([\.fullName])
        @Attribute(.unique) var handle: String
        @Attribute(originalName: "name") var fullName: String
        var nickname: String?
        init(handle: String, fullName: String) {
            self.handle = handle
            self.fullName = fullName
        }
    }
}

/// A film's cast, first one-way (a join table named after the film's side), then with the
/// actors' side added as its inverse (the pair's table is named after the actor's side).
enum CastSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [CastFilm.self, CastActor.self] }
    @Model final class CastFilm {
        var title: String
        @Relationship(inverse: nil) var actors: [CastActor] = []
        init(title: String) { self.title = title }
    }

    @Model final class CastActor {
        var name: String
        init(name: String) { self.name = name }
    }
}

enum CastSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [CastFilm.self, CastActor.self] }
    @Model final class CastFilm {
        var title: String
        @Relationship(inverse: \CastActor.films) var actors: [CastActor] = []
        init(title: String) { self.title = title }
    }

    @Model final class CastActor {
        var name: String
        var films: [CastFilm] = []
        init(name: String) { self.name = name }
    }
}

/// A pet's `owner` that names an owner, then a vet.
enum PetSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Pet.self, PetOwner.self, Vet.self] }
    @Model final class Pet {
        var name: String
        @Relationship(inverse: nil) var owner: PetOwner?
        init(name: String, owner: PetOwner?) {
            self.name = name
            self.owner = owner
        }
    }

    @Model final class PetOwner {
        var name: String
        init(name: String) { self.name = name }
    }

    @Model final class Vet {
        var name: String
        init(name: String) { self.name = name }
    }
}

enum PetSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Pet.self, PetOwner.self, Vet.self] }
    @Model final class Pet {
        var name: String
        @Relationship(inverse: nil) var owner: Vet?
        init(name: String) { self.name = name }
    }

    @Model final class PetOwner {
        var name: String
        init(name: String) { self.name = name }
    }

    @Model final class Vet {
        var name: String
        init(name: String) { self.name = name }
    }
}

/// Two names that swap places, and a third that takes a dropped attribute's name.
enum SwapSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Entry.self] }
    @Model final class Entry {
        var left: String
        var right: String
        var old: String
        var label: String
        init(left: String, right: String, old: String, label: String) {
            self.left = left
            self.right = right
            self.old = old
            self.label = label
        }
    }
}

enum SwapSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Entry.self] }
    @Model final class Entry {
        @Attribute(originalName: "right") var left: String
        @Attribute(originalName: "left") var right: String
        @Attribute(originalName: "label") var old: String
        init(left: String, right: String, old: String) {
            self.left = left
            self.right = right
            self.old = old
        }
    }
}

enum SwapPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [SwapSchemaV1.self, SwapSchemaV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: SwapSchemaV1.self, toVersion: SwapSchemaV2.self)] }
}

/// A picture's bytes kept in the table, then outside it (`.externalStorage`), then renamed.
enum PictureSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Picture.self] }
    @Model final class Picture {
        var name: String
        var bytes: Data
        var caption: Data?
        init(name: String, bytes: Data, caption: Data?) {
            self.name = name
            self.bytes = bytes
            self.caption = caption
        }
    }
}

enum PictureSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Picture.self] }
    @Model final class Picture {
        var name: String
        @Attribute(.externalStorage) var bytes: Data
        @Attribute(.externalStorage) var caption: Data?
        init(name: String, bytes: Data) {
            self.name = name
            self.bytes = bytes
        }
    }
}

enum PictureSchemaV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Picture.self] }
    @Model final class Picture {
        var name: String
        @Attribute(.externalStorage, originalName: "bytes") var image: Data
        var caption: Data?
        init(name: String, image: Data) {
            self.name = name
            self.image = image
        }
    }
}

enum PicturePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PictureSchemaV1.self, PictureSchemaV2.self, PictureSchemaV3.self] }
    static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: PictureSchemaV1.self, toVersion: PictureSchemaV2.self),
            .lightweight(fromVersion: PictureSchemaV2.self, toVersion: PictureSchemaV3.self),
        ]
    }
}

// Players gain a non-optional rank, with no default, that a transform fills from their points.

enum PlayerSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Player.self] }
    @Model final class Player {
        @Attribute(.unique) var name: String
        var points: Int
        init(name: String, points: Int) {
            self.name = name
            self.points = points
        }
    }
}

enum PlayerSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Player.self] }
    @Model final class Player {
        @Attribute(.unique) var name: String
        var points: Int
        var rank: String
        init(name: String, points: Int, rank: String) {
            self.name = name
            self.points = points
            self.rank = rank
        }
    }
}

enum PlayerRankPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PlayerSchemaV1.self, PlayerSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.transform(fromVersion: PlayerSchemaV1.self, toVersion: PlayerSchemaV2.self,
                    model: PlayerSchemaV1.Player.self, to: PlayerSchemaV2.Player.self) { old, new in
            new.rank = old.points > 10 ? "gold" : "silver"
        }]
    }
}

/// Players that count, in storage the store never sees, how often a transform visited them.
enum PlayerSchemaV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Player.self] }
    @Model final class Player {
        @Attribute(.unique) var name: String
        var points: Int
        var rank: String
        @Transient var visits = 0
        init(name: String, points: Int, rank: String) {
            self.name = name
            self.points = points
            self.rank = rank
        }
    }
}

/// Ranks written two players a batch, keeping the models of the players named `keptNames`
/// past the migration.
enum PlayerBatchRankPlan: SchemaMigrationPlan {
    static let keptNames: Set = ["p1", "p4"]
    static let kept = Recorder<[(old: PlayerSchemaV1.Player, new: PlayerSchemaV2.Player)]>([])
    static var schemas: [any VersionedSchema.Type] { [PlayerSchemaV1.self, PlayerSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.transform(fromVersion: PlayerSchemaV1.self, toVersion: PlayerSchemaV2.self,
                    model: PlayerSchemaV1.Player.self, to: PlayerSchemaV2.Player.self, batchSize: 2) { old, new in
            new.rank = "\(old.name):\(old.points)"
            if keptNames.contains(old.name) { kept.value.append((old, new)) }
        }]
    }
}

/// Records the transient count each new model starts its step with, two players a batch.
enum PlayerVisitsPlan: SchemaMigrationPlan {
    static let visitsSeen = Recorder<[Int]>([])
    static var schemas: [any VersionedSchema.Type] { [PlayerSchemaV1.self, PlayerSchemaV3.self] }
    static var stages: [MigrationStage] {
        [.transform(fromVersion: PlayerSchemaV1.self, toVersion: PlayerSchemaV3.self,
                    model: PlayerSchemaV1.Player.self, to: PlayerSchemaV3.Player.self, batchSize: 2) { old, new in
            visitsSeen.value.append(new.visits)
            new.visits += 1
            new.rank = old.name
        }]
    }
}

/// The name split in batches of two, where the first user's step deletes a user of the next
/// batch: old and new models must still pair by row.
enum UserPruningPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [UserSchemaV1.self, UserSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.transform(fromVersion: UserSchemaV1.self, toVersion: UserSchemaV2.self,
                    model: UserSchemaV1.User.self, to: UserSchemaV2.User.self, batchSize: 2) { old, new in
            let parts = old.name.split(separator: " ", maxSplits: 1).map(String.init)
            new.firstName = parts.first ?? ""
            new.lastName = parts.count > 1 ? parts[1] : ""
            if old.email == "ada@x", let context = new.modelContext {
                for user in try context.fetch(FetchDescriptor<UserSchemaV2.User>(predicate: #Predicate { $0.email == "cy@x" })) {
                    context.delete(user)
                }
            }
        }]
    }
}

// Badges gain a unique, non-optional code: filled per row by a transform, or (wrongly) given
// one default for every row.

enum BadgeSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Badge.self] }
    @Model final class Badge {
        var name: String
        init(name: String) { self.name = name }
    }
}

enum BadgeSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Badge.self] }
    @Model final class Badge {
        var name: String
        @Attribute(.unique) var code: String
        init(name: String, code: String) {
            self.name = name
            self.code = code
        }
    }
}

enum BadgeSchemaV2WithDefault: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 1, 0)
    static var models: [any PersistentModel.Type] { [Badge.self] }
    @Model final class Badge {
        var name: String
        @Attribute(.unique) var code: String = "none"
        init(name: String) { self.name = name }
    }
}

enum BadgeCodePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [BadgeSchemaV1.self, BadgeSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.transform(fromVersion: BadgeSchemaV1.self, toVersion: BadgeSchemaV2.self,
                    model: BadgeSchemaV1.Badge.self, to: BadgeSchemaV2.Badge.self) { old, new in
            new.code = old.name.uppercased()
        }]
    }
}

enum BadgeClashingCodePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [BadgeSchemaV1.self, BadgeSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.transform(fromVersion: BadgeSchemaV1.self, toVersion: BadgeSchemaV2.self,
                    model: BadgeSchemaV1.Badge.self, to: BadgeSchemaV2.Badge.self) { _, new in
            new.code = "SAME"
        }]
    }
}

enum BadgeDefaultPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [BadgeSchemaV1.self, BadgeSchemaV2WithDefault.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: BadgeSchemaV1.self, toVersion: BadgeSchemaV2WithDefault.self)] }
}

// Posts gain a summary a transform writes from the old post's title, body and author: the
// column is added between the attributes the old model reads and its author's key.

enum PostSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Author.self, Post.self] }
    @Model final class Author {
        var name: String
        @Relationship(inverse: \Post.author) var posts: [Post] = []
        init(name: String) { self.name = name }
    }
    @Model final class Post {
        var title: String
        var body: String?
        var author: Author?
        init(title: String, body: String?, author: Author?) {
            self.title = title
            self.body = body
            self.author = author
        }
    }
}

enum PostSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Author.self, Post.self] }
    @Model final class Author {
        var name: String
        @Relationship(inverse: \Post.author) var posts: [Post] = []
        init(name: String) { self.name = name }
    }
    @Model final class Post {
        var title: String
        var body: String?
        var summary: String
        var author: Author?
        init(title: String, body: String?, summary: String, author: Author?) {
            self.title = title
            self.body = body
            self.summary = summary
            self.author = author
        }
    }
}

enum PostSummaryPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [PostSchemaV1.self, PostSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.transform(fromVersion: PostSchemaV1.self, toVersion: PostSchemaV2.self,
                    model: PostSchemaV1.Post.self, to: PostSchemaV2.Post.self, batchSize: 2) { old, new in
            new.summary = "\(old.title) by \(old.author?.name ?? "nobody")\(old.body.map { ": \($0)" } ?? "")"
        }]
    }
}

// Attachments gain a size a transform reads off the old model's bytes, which are kept outside
// the table (`.externalStorage`).

enum AttachmentSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Attachment.self] }
    @Model final class Attachment {
        var name: String
        @Attribute(.externalStorage) var bytes: Data
        init(name: String, bytes: Data) {
            self.name = name
            self.bytes = bytes
        }
    }
}

enum AttachmentSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Attachment.self] }
    @Model final class Attachment {
        var name: String
        @Attribute(.externalStorage) var bytes: Data
        var size: Int
        init(name: String, bytes: Data, size: Int) {
            self.name = name
            self.bytes = bytes
            self.size = size
        }
    }
}

enum AttachmentSizePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [AttachmentSchemaV1.self, AttachmentSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.transform(fromVersion: AttachmentSchemaV1.self, toVersion: AttachmentSchemaV2.self,
                    model: AttachmentSchemaV1.Attachment.self, to: AttachmentSchemaV2.Attachment.self) { old, new in
            new.size = old.bytes.count
        }]
    }
}

// Chores gain a label a transform writes from the old chore. Each version declares its own
// `Priority`: the old model must read the old version's type, though both versions store it
// in the same column and the new model reads that column too.

enum ChoreSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Chore.self] }
    enum Priority: String, Codable { case low, high }
    @Model final class Chore {
        var title: String
        var priority: Priority
        var due: Date
        var minutes: Int?
        init(title: String, priority: Priority, due: Date, minutes: Int?) {
            self.title = title
            self.priority = priority
            self.due = due
            self.minutes = minutes
        }
    }
}

enum ChoreSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Chore.self] }
    enum Priority: String, Codable { case low, high }
    @Model final class Chore {
        var title: String
        var priority: Priority
        var due: Date
        var minutes: Int?
        var label: String
        init(title: String, priority: Priority, due: Date, minutes: Int?, label: String) {
            self.title = title
            self.priority = priority
            self.due = due
            self.minutes = minutes
            self.label = label
        }
    }
}

/// Keeps the migration's context after the migration, as an app holding on to what its stage
/// was given would: models of the app's own container must stay observable all the same.
enum ChoreLabelPlan: SchemaMigrationPlan {
    static let keptContexts = Recorder<[ModelContext]>([])
    static var schemas: [any VersionedSchema.Type] { [ChoreSchemaV1.self, ChoreSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.transform(fromVersion: ChoreSchemaV1.self, toVersion: ChoreSchemaV2.self,
                    model: ChoreSchemaV1.Chore.self, to: ChoreSchemaV2.Chore.self,
                    willMigrate: { keptContexts.value.append($0) }) { old, new in
            let priority: ChoreSchemaV1.Priority = old.priority
            let day = Int(old.due.timeIntervalSinceReferenceDate / 86_400)
            new.label = "\(priority.rawValue) \(old.title) day \(day) \(old.minutes.map { "\($0) min" } ?? "untimed")"
        }]
    }
}
