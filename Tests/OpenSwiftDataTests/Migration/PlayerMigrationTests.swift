import Foundation
import Testing
@testable import OpenSwiftData

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

extension MigrationTests {
    /// The column a transform fills is added in place with a placeholder, not by copying the
    /// table: a launch-time migration of a large store stays one pass over its rows.
    @Test func aColumnATransformFillsIsAddedInPlace() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: PlayerSchemaV1.Player.self) { context in
            context.insert(PlayerSchemaV1.Player(name: "ada", points: 12))
            context.insert(PlayerSchemaV1.Player(name: "bob", points: 3))
        }
        let container = try ModelContainer(for: PlayerSchemaV2.Player.self, migrationPlan: PlayerRankPlan.self, configurations: ModelConfiguration(url: url))
        let players = try ModelContext(container).fetch(FetchDescriptor<PlayerSchemaV2.Player>(sortBy: [SortDescriptor(\.name)]))
        #expect(players.map(\.rank) == ["gold", "silver"])
        let sql = try rawRow(url, sql: "SELECT sql FROM _osd_migrations")[0] as String
        #expect(sql.contains(#"ADD COLUMN "rank" TEXT NOT NULL DEFAULT ''"#))
        #expect(!sql.contains("_osd_new_"))
    }

    private func seedPlayers(_ url: URL, count: Int) throws {
        try writeStore(url, for: PlayerSchemaV1.Player.self) { context in
            for number in 0..<count { context.insert(PlayerSchemaV1.Player(name: "p\(number)", points: number * 10)) }
        }
    }

    /// A transform gives the models of a saved batch that nothing keeps to the rows of the next
    /// (`SpareModels`): every row still gets its own values, and the models the closure keeps
    /// are left as they were.
    @Test func aTransformsLaterBatchesGetTheirOwnRowsAndKeptModelsStayTheirs() throws {
        let url = temporaryStoreURL()
        try seedPlayers(url, count: 7)
        defer { PlayerBatchRankPlan.kept.value = [] }
        let container = try ModelContainer(
            for: PlayerSchemaV2.Player.self, migrationPlan: PlayerBatchRankPlan.self, configurations: ModelConfiguration(url: url))
        let expected = (0..<7).map { "p\($0):\($0 * 10)" }
        let players = try ModelContext(container).fetch(FetchDescriptor<PlayerSchemaV2.Player>(sortBy: [SortDescriptor(\.points)]))
        #expect(players.map(\.rank) == expected)
        let kept = PlayerBatchRankPlan.kept.value
        #expect(kept.map(\.old.name) == ["p1", "p4"])
        #expect(kept.map(\.old.points) == [10, 40])
        #expect(kept.map(\.new.name) == ["p1", "p4"])
        #expect(kept.map(\.new.rank) == ["p1:10", "p4:40"])

        let reopened = try ModelContainer(for: PlayerSchemaV2.Player.self, configurations: ModelConfiguration(url: url))
        let stored = try ModelContext(reopened).fetch(FetchDescriptor<PlayerSchemaV2.Player>(sortBy: [SortDescriptor(\.points)]))
        #expect(stored.map(\.rank) == expected)
        #expect(stored.map(\.name) == (0..<7).map { "p\($0)" })
    }

    /// A model whose class has a `@Transient` property is never given another row: each step
    /// sees the property's initial value, as on a model made for its row.
    @Test func aTransformsModelsWithTransientPropertiesStartFresh() throws {
        let url = temporaryStoreURL()
        try seedPlayers(url, count: 5)
        defer { PlayerVisitsPlan.visitsSeen.value = [] }
        let container = try ModelContainer(
            for: PlayerSchemaV3.Player.self, migrationPlan: PlayerVisitsPlan.self, configurations: ModelConfiguration(url: url))
        #expect(PlayerVisitsPlan.visitsSeen.value == [0, 0, 0, 0, 0])
        let players = try ModelContext(container).fetch(FetchDescriptor<PlayerSchemaV3.Player>(sortBy: [SortDescriptor(\.points)]))
        #expect(players.map(\.rank) == ["p0", "p1", "p2", "p3", "p4"])
    }
}
