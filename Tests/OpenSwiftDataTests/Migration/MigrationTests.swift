import Foundation
import GRDB
import Testing
@testable import OpenSwiftData
import PixarFilmTracker

/// Every scenario seeds a real store file with the old version's models in one container, then
/// opens it with the new version in another.
@Suite(.serialized) struct MigrationTests {
    private func seedPixarV1(_ url: URL) throws {
        let context = ModelContext(try ModelContainer(for: Schema(versionedSchema: PixarSchemaV1.self), configurations: ModelConfiguration(url: url)))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for (title, year) in [("Toy Story", 1995), ("Up", 2009), ("Coco", 2017)] {
            let date = calendar.date(from: DateComponents(year: year, month: 6, day: 15))!
            context.insert(PixarSchemaV1.PixarFilm(title: title, releaseDate: date))
        }
        try context.save()
    }

    @Test func pixarV1StoreOpensAtV3ThroughACustomAndALightweightStage() throws {
        let url = temporaryStoreURL()
        try seedPixarV1(url)
        let container = try ModelContainer(
            for: Schema(versionedSchema: PixarSchemaV3.self), migrationPlan: PixarCustomStagePlan.self,
            configurations: ModelConfiguration(url: url))
        let films = try ModelContext(container).fetch(FetchDescriptor<PixarSchemaV3.PixarFilm>(sortBy: [SortDescriptor(\.releaseYear)]))
        #expect(films.map(\.title) == ["Toy Story", "Up", "Coco"])
        #expect(films.map(\.releaseYear) == [1995, 2009, 2017])
        #expect(films.allSatisfy { $0.releaseCountry == "US" && $0.isAnimated && $0.posterURL == nil })
        #expect(try rawColumns(url, table: "PixarFilm") == ["_pk", "title", "releaseYear", "releaseCountry", "posterURL", "isAnimated"])
        let history = try DatabaseQueue(path: url.path).read { db in
            try Row.fetchAll(db, sql: "SELECT fromVersion, toVersion, kind FROM _osd_migrations ORDER BY id")
        }
        #expect(history.map { $0["kind"] as String } == ["custom", "lightweight"])
        #expect(FileManager.default.fileExists(atPath: url.path + ".backup"))

        // Opened again, nothing runs.
        _ = try ModelContainer(for: Schema(versionedSchema: PixarSchemaV3.self), migrationPlan: PixarCustomStagePlan.self, configurations: ModelConfiguration(url: url))
        #expect(try rawRow(url, sql: "SELECT COUNT(*) FROM _osd_migrations")[0] as Int == 2)
    }

    @Test func pixarV2StoreMigratesToV3Lightweight() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Schema(versionedSchema: PixarSchemaV2.self)) { context in
            context.insert(PixarSchemaV2.PixarFilm(title: "Cars", releaseYear: 2006, releaseCountry: "US"))
        }
        let container = try ModelContainer(for: PixarSchemaV3.PixarFilm.self, migrationPlan: PixarCustomStagePlan.self, configurations: ModelConfiguration(url: url))
        let film = try ModelContext(container).fetch(FetchDescriptor<PixarSchemaV3.PixarFilm>())[0]
        #expect(film.title == "Cars")
        #expect(film.releaseYear == 2006)
        #expect(film.isAnimated)
    }

    @Test func aStoreWrittenWithoutVersionedSchemasIsRecognisedAsV1() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: NoteSchemaV1.Memo.self) { context in
            context.insert(NoteSchemaV1.Memo(text: "buy milk"))
        }
        let container = try ModelContainer(for: NoteSchemaV2.Memo.self, migrationPlan: NotePlan.self, configurations: ModelConfiguration(url: url))
        let memo = try ModelContext(container).fetch(FetchDescriptor<NoteSchemaV2.Memo>())[0]
        #expect(memo.body == "buy milk")
        #expect(memo.isFavorite == false)
        #expect(memo.pinnedAt == nil)
    }

    @Test func lightweightChangesNeedNoPlan() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: NoteSchemaV1.Memo.self) { context in
            context.insert(NoteSchemaV1.Memo(text: "a"))
            context.insert(NoteSchemaV1.Memo(text: "b"))
        }
        let container = try ModelContainer(for: NoteSchemaV2.Memo.self, configurations: ModelConfiguration(url: url))
        let memos = try ModelContext(container).fetch(FetchDescriptor<NoteSchemaV2.Memo>(sortBy: [SortDescriptor(\.body)]))
        #expect(memos.map(\.body) == ["a", "b"])
        #expect(try rawColumns(url, table: "Memo") == ["_pk", "body", "isFavorite", "pinnedAt"])
    }

    @Test func aNonOptionalAttributeWithoutDefaultIsRefusedAndTheStoreUntouched() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: NoteSchemaV2.Memo.self) { context in
            context.insert(NoteSchemaV2.Memo(body: "x"))
        }
        let before = try rawRow(url, sql: "SELECT value FROM _osd_metadata WHERE key = 'fingerprint'")[0] as String
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: NoteSchemaV3.Memo.self, configurations: ModelConfiguration(url: url))
        }
        #expect(error.description.contains("Memo.priority"))
        #expect(error.description.contains("non-optional with no default"))
        #expect(try rawRow(url, sql: "SELECT value FROM _osd_metadata WHERE key = 'fingerprint'")[0] as String == before)
        #expect(try rawColumns(url, table: "Memo") == ["_pk", "body", "isFavorite", "pinnedAt"])
    }

    @Test func duplicateVersionChecksumsAreAnErrorNamingBothVersions() throws {
        let url = temporaryStoreURL()
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: NoteSchemaV1Again.Memo.self, migrationPlan: DuplicatePlan.self, configurations: ModelConfiguration(url: url))
        }
        #expect(error.description.contains("NoteSchemaV1 (1.0.0)"))
        #expect(error.description.contains("NoteSchemaV1Again (1.1.0)"))
        #expect(error.description.contains("needs no new version"))
    }

    @Test func budgetsAreDeduplicatedBeforeTheUniqueConstraintAndDescribedAfter() throws {
        let url = temporaryStoreURL()
        func seed() throws {
            try? FileManager.default.removeItem(at: url)
            let context = ModelContext(try ModelContainer(for: BudgetSchemaV1.Budget.self, configurations: ModelConfiguration(url: url)))
            context.insert(BudgetSchemaV1.Budget(name: "Food", limit: 100))
            context.insert(BudgetSchemaV1.Budget(name: "Food", limit: 300))
            context.insert(BudgetSchemaV1.Budget(name: "Rent", limit: 900))
            try context.save()
        }
        try seed()
        let refused = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: BudgetSchemaV2.Budget.self, migrationPlan: BudgetPlanWithoutDeduplication.self, configurations: ModelConfiguration(url: url))
        }
        #expect(refused.description.contains("unique constraint on name"))
        #expect(refused.description.contains("\"Food\""))
        #expect(try rawRow(url, sql: "SELECT COUNT(*) FROM Budget")[0] as Int == 3)

        let container = try ModelContainer(for: BudgetSchemaV2.Budget.self, migrationPlan: BudgetMigrationPlan.self, configurations: ModelConfiguration(url: url))
        let budgets = try ModelContext(container).fetch(FetchDescriptor<BudgetSchemaV2.Budget>(sortBy: [SortDescriptor(\.name)]))
        #expect(budgets.map(\.name) == ["Food", "Rent"])
        #expect(budgets.map(\.limit) == [300, 900])
        #expect(budgets.map(\.desc) == ["Budget for Food", "Budget for Rent"])
    }

    @Test func aFailingStageRollsEverythingBack() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: BudgetSchemaV1.Budget.self) { context in
            context.insert(BudgetSchemaV1.Budget(name: "Food", limit: 100))
        }
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: BudgetSchemaV2.Budget.self, migrationPlan: FailingBudgetPlan.self, configurations: ModelConfiguration(url: url))
        }
        #expect(error.description.contains("didMigrate"))
        #expect(error.description.contains("the stage gave up"))
        #expect(error.description.contains("rolled back"))
        let budgets = try ModelContext(try ModelContainer(for: BudgetSchemaV1.Budget.self, configurations: ModelConfiguration(url: url)))
            .fetch(FetchDescriptor<BudgetSchemaV1.Budget>())
        #expect(budgets.map(\.limit) == [100])
    }

    @Test func aStoreNewerThanTheAppIsRefused() throws {
        let url = temporaryStoreURL()
        _ = try ModelContainer(for: Schema(versionedSchema: PixarSchemaV3.self), configurations: ModelConfiguration(url: url))
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: Schema(versionedSchema: PixarSchemaV2.self), migrationPlan: PixarCustomStagePlan.self, configurations: ModelConfiguration(url: url))
        }
        #expect(error == .backwardMigration)
        #expect(error.description.contains("PixarSchemaV3"))
        let withoutPlan = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: Schema(versionedSchema: PixarSchemaV2.self), configurations: ModelConfiguration(url: url))
        }
        #expect(withoutPlan == .backwardMigration)
    }

    @Test func aTransformStageSeesOldAndNewValuesTogether() throws {
        let url = temporaryStoreURL()
        try seedPixarV1(url)
        let container = try ModelContainer(for: PixarSchemaV2.PixarFilm.self, migrationPlan: PixarTransformPlan.self, configurations: ModelConfiguration(url: url))
        let films = try ModelContext(container).fetch(FetchDescriptor<PixarSchemaV2.PixarFilm>(sortBy: [SortDescriptor(\.releaseYear)]))
        #expect(films.map(\.releaseYear) == [1995, 2009, 2017])
        #expect(films.map(\.releaseCountry) == ["US", "US", "MX"])
        let tables = try DatabaseQueue(path: url.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '_osd_old%'")
        }
        #expect(tables.isEmpty)
    }

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

    /// A transform over a table the migration only adds columns to reads each row once for
    /// both models: the old model's values, its relationship's key among them, come from the
    /// new row, where the added column sits before that key.
    @Test func aTransformOverAddedColumnsReadsTheOldModelFromTheNewRow() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: PostSchemaV1.Post.self) { context in
            let ada = PostSchemaV1.Author(name: "Ada")
            let bob = PostSchemaV1.Author(name: "Bob")
            context.insert(PostSchemaV1.Post(title: "Engines", body: "notes", author: ada))
            context.insert(PostSchemaV1.Post(title: "Orphan", body: nil, author: nil))
            context.insert(PostSchemaV1.Post(title: "Networks", body: nil, author: bob))
        }
        let container = try ModelContainer(for: PostSchemaV2.Post.self, migrationPlan: PostSummaryPlan.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        let posts = try context.fetch(FetchDescriptor<PostSchemaV2.Post>(sortBy: [SortDescriptor(\.title)]))
        #expect(posts.map(\.summary) == ["Engines by Ada: notes", "Networks by Bob", "Orphan by nobody"])
        #expect(posts.map { $0.author?.name } == ["Ada", "Bob", nil])
        #expect(posts.map(\.body) == ["notes", nil, nil])
        let sql = try rawRow(url, sql: "SELECT sql FROM _osd_migrations")[0] as String
        #expect(!sql.contains("_osd_new_"))
    }

    /// The old model reads its own version's types from the row the new model reads too, and
    /// models read after the migration are observed as ever (the migration's own models are
    /// not), though the migration's context is still alive.
    @Test func aTransformOverAddedColumnsReadsEachVersionsOwnTypes() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: ChoreSchemaV1.Chore.self) { context in
            context.insert(ChoreSchemaV1.Chore(title: "dishes", priority: .high, due: Date(timeIntervalSinceReferenceDate: 86_400 * 3), minutes: 15))
            context.insert(ChoreSchemaV1.Chore(title: "plants", priority: .low, due: Date(timeIntervalSinceReferenceDate: 86_400 * 5), minutes: nil))
        }
        let container = try ModelContainer(for: ChoreSchemaV2.Chore.self, migrationPlan: ChoreLabelPlan.self, configurations: ModelConfiguration(url: url))
        let chores = try ModelContext(container).fetch(FetchDescriptor<ChoreSchemaV2.Chore>(sortBy: [SortDescriptor(\.title)]))
        #expect(chores.map(\.label) == ["high dishes day 3 15 min", "low plants day 5 untimed"])
        #expect(chores.map(\.priority) == [.high, .low])
        #expect(chores.map(\.minutes) == [15, nil])

        #expect(ChoreLabelPlan.keptContexts.value.count == 1)
        let changes = Recorder<Int>(0)
        withObservationTracking { _ = chores[0].label } onChange: { changes.value += 1 }
        chores[0].label = "done"
        #expect(changes.value == 1)
        ChoreLabelPlan.keptContexts.value = []
    }

    /// A transform reads the old model's bytes kept outside the table (`.externalStorage`),
    /// though the new version only adds a column.
    @Test func aTransformReadsTheOldModelsExternalBytes() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: AttachmentSchemaV1.Attachment.self) { context in
            context.insert(AttachmentSchemaV1.Attachment(name: "a", bytes: Data(repeating: 7, count: 3)))
            context.insert(AttachmentSchemaV1.Attachment(name: "b", bytes: Data(repeating: 9, count: 5)))
        }
        let container = try ModelContainer(
            for: AttachmentSchemaV2.Attachment.self, migrationPlan: AttachmentSizePlan.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        let attachments = try context.fetch(FetchDescriptor<AttachmentSchemaV2.Attachment>(sortBy: [SortDescriptor(\.name)]))
        #expect(attachments.map(\.size) == [3, 5])
        #expect(attachments.map(\.bytes) == [Data(repeating: 7, count: 3), Data(repeating: 9, count: 5)])
        // Side tables make the migration rebuild the table: the old models read the old rows.
        let sql = try rawRow(url, sql: "SELECT sql FROM _osd_migrations")[0] as String
        #expect(sql.contains("_osd_new_Attachment"))
    }

    @Test func userNamesSplitIntoFirstAndLast() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: UserSchemaV1.User.self) { context in
            context.insert(UserSchemaV1.User(name: "Ada Lovelace", email: "ada@x"))
            context.insert(UserSchemaV1.User(name: "Plato", email: "plato@x"))
        }
        let container = try ModelContainer(for: UserSchemaV2.User.self, migrationPlan: UserMigrationPlan.self, configurations: ModelConfiguration(url: url))
        let users = try ModelContext(container).fetch(FetchDescriptor<UserSchemaV2.User>(sortBy: [SortDescriptor(\.email)]))
        #expect(users.map(\.firstName) == ["Ada", "Plato"])
        #expect(users.map(\.lastName) == ["Lovelace", ""])
        #expect(users.map(\.email) == ["ada@x", "plato@x"])
    }

    @Test func aTransformThatDeletesALaterRowStillPairsOldAndNewByRow() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: UserSchemaV1.User.self) { context in
            for (name, email) in [("Ada Lovelace", "ada@x"), ("Bob Kahn", "bob@x"), ("Cy Young", "cy@x"), ("Di Fossey", "di@x")] {
                context.insert(UserSchemaV1.User(name: name, email: email))
            }
        }
        let container = try ModelContainer(for: UserSchemaV2.User.self, migrationPlan: UserPruningPlan.self, configurations: ModelConfiguration(url: url))
        let users = try ModelContext(container).fetch(FetchDescriptor<UserSchemaV2.User>(sortBy: [SortDescriptor(\.email)]))
        #expect(users.map(\.email) == ["ada@x", "bob@x", "di@x"])
        #expect(users.map(\.firstName) == ["Ada", "Bob", "Di"])
        #expect(users.map(\.lastName) == ["Lovelace", "Kahn", "Fossey"])
    }

    private func seedBadges(_ url: URL) throws {
        try writeStore(url, for: BadgeSchemaV1.Badge.self) { context in
            context.insert(BadgeSchemaV1.Badge(name: "gold"))
            context.insert(BadgeSchemaV1.Badge(name: "silver"))
        }
    }

    /// A new unique attribute filled row by row: its index is created after the stage, over
    /// the filled values, not over the placeholders every row starts with.
    @Test func aNewUniqueAttributeFilledByATransformMigrates() throws {
        let url = temporaryStoreURL()
        try seedBadges(url)
        let container = try ModelContainer(for: BadgeSchemaV2.Badge.self, migrationPlan: BadgeCodePlan.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        #expect(try context.fetch(FetchDescriptor<BadgeSchemaV2.Badge>(sortBy: [SortDescriptor(\.name)])).map(\.code) == ["GOLD", "SILVER"])
        // The constraint holds afterwards: inserting an existing code updates that row.
        context.insert(BadgeSchemaV2.Badge(name: "golden", code: "GOLD"))
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<BadgeSchemaV2.Badge>()) == 2)
    }

    @Test func aTransformLeavingUniqueValuesRepeatedFailsAndChangesNothing() throws {
        let url = temporaryStoreURL()
        try seedBadges(url)
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: BadgeSchemaV2.Badge.self, migrationPlan: BadgeClashingCodePlan.self, configurations: ModelConfiguration(url: url))
        }
        #expect(error.description.contains("Badge rows still share values of code"))
        #expect(error.description.contains("give every row its own value"))
        let names = try ModelContext(ModelContainer(for: BadgeSchemaV1.Badge.self, configurations: ModelConfiguration(url: url)))
            .fetch(FetchDescriptor<BadgeSchemaV1.Badge>(sortBy: [SortDescriptor(\.name)])).map(\.name)
        #expect(names == ["gold", "silver"])
    }

    @Test func aNewUniqueAttributeWithOneDefaultForEveryRowIsRefused() throws {
        let url = temporaryStoreURL()
        try seedBadges(url)
        let before = try Data(contentsOf: url)
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: BadgeSchemaV2WithDefault.Badge.self, migrationPlan: BadgeDefaultPlan.self, configurations: ModelConfiguration(url: url))
        }
        #expect(error.description.contains("Badge.code is added in"))
        #expect(error.description.contains("all 2 stored rows the same value"))
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aRebuiltTableNeverReusesADeletedRowsKey() throws {
        let url = temporaryStoreURL()
        var deletedID: PersistentIdentifier?
        do {
            let context = ModelContext(try ModelContainer(for: CounterSchemaV1.Tally.self, configurations: ModelConfiguration(url: url)))
            let keep = CounterSchemaV1.Tally(name: "keep", count: 1)
            let drop = CounterSchemaV1.Tally(name: "drop", count: 2)
            context.insert(keep)
            context.insert(drop)
            try context.save()
            deletedID = drop.persistentModelID
            context.delete(drop)
            try context.save()
        }
        // An optional becoming non-optional cannot be done with ALTER TABLE: the table is rebuilt.
        let context = ModelContext(try ModelContainer(for: CounterSchemaV2.Tally.self, configurations: ModelConfiguration(url: url)))
        let migrationSQL: String = try rawRow(url, sql: "SELECT sql FROM _osd_migrations")[0]
        #expect(migrationSQL.contains("ALTER TABLE \"_osd_new_Tally\" RENAME TO \"Tally\""))
        let tally = CounterSchemaV2.Tally(name: "new")
        context.insert(tally)
        try context.save()
        #expect(try #require(tally.persistentModelID.rowID) > (try #require(deletedID?.rowID)))
    }

    @Test func tripsGainUniqueNamesRenamedDatesAndCascadingDeletes() throws {
        let url = temporaryStoreURL()
        let day: TimeInterval = 86_400
        try writeStore(url, for: Schema(versionedSchema: TripsSchemaV1.self)) { context in
            let paris = TripsSchemaV1.Trip(name: "Paris", destination: "France", start_date: Date(timeIntervalSinceReferenceDate: 10 * day), end_date: Date(timeIntervalSinceReferenceDate: 12 * day))
            paris.bucketList = [TripsSchemaV1.BucketListItem(title: "Louvre"), TripsSchemaV1.BucketListItem(title: "Seine")]
            paris.livingAccommodation = TripsSchemaV1.LivingAccommodation(address: "Rue Cler")
            let again = TripsSchemaV1.Trip(name: "Paris", destination: "France", start_date: Date(timeIntervalSinceReferenceDate: 20 * day), end_date: Date(timeIntervalSinceReferenceDate: 21 * day))
            let kyoto = TripsSchemaV1.Trip(name: "Kyoto", destination: "Japan", start_date: Date(timeIntervalSinceReferenceDate: 30 * day), end_date: Date(timeIntervalSinceReferenceDate: 35 * day))
            kyoto.bucketList = [TripsSchemaV1.BucketListItem(title: "Fushimi Inari")]
            for trip in [paris, again, kyoto] { context.insert(trip) }
        }
        let container = try ModelContainer(for: Schema(versionedSchema: TripsSchemaV3.self), migrationPlan: TripsMigrationPlan.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<TripsSchemaV3.Trip>(sortBy: [SortDescriptor(\.startDate)]))
        #expect(trips.map(\.name) == ["Paris", "Kyoto"])
        #expect(trips[0].startDate == Date(timeIntervalSinceReferenceDate: 10 * day))
        #expect(trips[0].endDate == Date(timeIntervalSinceReferenceDate: 12 * day))
        #expect(Set((trips[0].bucketList ?? []).map(\.title)) == ["Louvre", "Seine"])
        #expect(trips[0].livingAccommodation?.address == "Rue Cler")
        #expect(trips[1].bucketList?.map(\.title) == ["Fushimi Inari"])

        // Unique names now upsert, and deleting a trip cascades to its items and lodging.
        context.insert(TripsSchemaV3.Trip(name: "Kyoto", destination: "Japan!", startDate: .now, endDate: .now))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<TripsSchemaV3.Trip>()) == 2)
        context.delete(trips[0])
        try context.save()
        let reread = ModelContext(container)
        #expect(try reread.fetch(FetchDescriptor<TripsSchemaV3.BucketListItem>()).map(\.title) == ["Fushimi Inari"])
        #expect(try reread.fetchCount(FetchDescriptor<TripsSchemaV3.LivingAccommodation>()) == 0)
    }

    @Test func brokenPlansAreRefusedBeforeTheStoreIsTouched() throws {
        let url = temporaryStoreURL()
        let unordered = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: NoteSchemaV2.Memo.self, migrationPlan: UnorderedPlan.self, configurations: ModelConfiguration(url: url))
        }
        #expect(unordered.description.contains("oldest to newest"))
        let outside = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: NoteSchemaV2.Memo.self, migrationPlan: StageOutsidePlan.self, configurations: ModelConfiguration(url: url))
        }
        #expect(outside.description.contains("NoteSchemaV3, which is not in"))
        let backward = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: NoteSchemaV2.Memo.self, migrationPlan: BackwardStagePlan.self, configurations: ModelConfiguration(url: url))
        }
        #expect(backward.description.contains("goes backwards"))
        let unknown = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: NoteSchemaV3.Memo.self, migrationPlan: NotePlan.self, configurations: ModelConfiguration(url: url))
        }
        #expect(unknown == .unknownSchema)
        #expect(unknown.description.contains("match no version"))
        #expect(unknown.description.contains("Memo.priority added"))
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func aStoreMatchingNoVersionIsRefusedWithTheDifference() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: NoteSchemaV3.Memo.self) { context in
            context.insert(NoteSchemaV3.Memo(body: "x"))
        }
        let error = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: NoteSchemaV2.Memo.self, migrationPlan: NotePlan.self, configurations: ModelConfiguration(url: url))
        }
        #expect(error == .unknownSchema)
        #expect(error.description.contains("nearest"))
        #expect(error.description.contains("priority"))
        #expect(try rawColumns(url, table: "Memo") == ["_pk", "body", "priority"])
    }

    @Test func aShippedVersionEditedInPlaceIsMigratedLightweight() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Schema(versionedSchema: NoteSchemaV1.self)) { context in
            context.insert(NoteSchemaV1.Memo(text: "old"))
        }
        let container = try ModelContainer(for: Schema(versionedSchema: EditedNoteSchemaV1.self), migrationPlan: EditedNotePlan.self, configurations: ModelConfiguration(url: url))
        let memo = try ModelContext(container).fetch(FetchDescriptor<EditedNoteSchemaV1.Memo>())[0]
        #expect(memo.text == "old")
        #expect(memo.color == "yellow")
    }

    @Test func renamedManyToManyRelationshipsKeepTheirPairs() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Schema(versionedSchema: ClassSchemaV1.self)) { context in
            let ann = ClassSchemaV1.Pupil(name: "Ann")
            let bob = ClassSchemaV1.Pupil(name: "Bob")
            let math = ClassSchemaV1.Lesson(title: "Math")
            ann.lessons = [math, ClassSchemaV1.Lesson(title: "Art")]
            bob.lessons = [math]
            context.insert(ann)
            context.insert(bob)
        }
        let container = try ModelContainer(for: Schema(versionedSchema: ClassSchemaV2.self), configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        let pupils = try context.fetch(FetchDescriptor<ClassSchemaV2.Pupil>(sortBy: [SortDescriptor(\.name)]))
        #expect(Set(pupils[0].classes.map(\.title)) == ["Math", "Art"])
        #expect(pupils[1].classes.map(\.title) == ["Math"])
        let math = try #require(pupils[1].classes.first)
        #expect(Set(math.attendees.map(\.name)) == ["Ann", "Bob"])
        let joinTables = try DatabaseQueue(path: url.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%join%'")
        }
        #expect(joinTables.count == 1)
    }

    @Test func anOptionalBecomesNonOptionalWithItsDefaultFillingNils() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: CounterSchemaV1.Tally.self) { context in
            context.insert(CounterSchemaV1.Tally(name: "a", count: 3))
            context.insert(CounterSchemaV1.Tally(name: "b", count: nil))
        }
        let refused = try #require(throws: SwiftDataError.self) {
            try ModelContainer(for: CounterSchemaV2WithoutDefault.Tally.self, configurations: ModelConfiguration(url: url))
        }
        #expect(refused.description.contains("Tally.count becomes non-optional"))
        #expect(refused.description.contains("1 row has no value"))

        let container = try ModelContainer(for: CounterSchemaV2.Tally.self, configurations: ModelConfiguration(url: url))
        let tallies = try ModelContext(container).fetch(FetchDescriptor<CounterSchemaV2.Tally>(sortBy: [SortDescriptor(\.name)]))
        #expect(tallies.map(\.count) == [3, 7])
    }

    @Test func theBackupCanBeTurnedOff() throws {
        let url = temporaryStoreURL()
        try seedMemoV2(url, body: "a")
        var configuration = ModelConfiguration(url: url)
        configuration.backsUpBeforeMigrating = false
        _ = try ModelContainer(for: NoteSchemaV2Trimmed.Memo.self, configurations: configuration)
        #expect(!FileManager.default.fileExists(atPath: url.path + ".backup"))
        #expect(try rawColumns(url, table: "Memo") == ["_pk", "body", "isFavorite"])
    }

    @Test func aMigrationThatDropsValuesIsBackedUpFirst() throws {
        let url = temporaryStoreURL()
        try seedMemoV2(url, body: "b")
        _ = try ModelContainer(for: NoteSchemaV2Trimmed.Memo.self, configurations: ModelConfiguration(url: url))
        #expect(try rawColumns(url, table: "Memo") == ["_pk", "body", "isFavorite"])
        let backup = URL(fileURLWithPath: url.path + ".backup")
        #expect(try rawColumns(backup, table: "Memo") == ["_pk", "body", "isFavorite", "pinnedAt"])
        #expect(try rawRow(backup, sql: "SELECT body, pinnedAt FROM Memo")[0] as String == "b")
        #expect(try rawRow(backup, sql: "SELECT pinnedAt FROM Memo")[0] as Double == 0)
    }

    @Test func aMigrationThatOnlyAddsAndRenamesIsNotCopied() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: NoteSchemaV1.Memo.self) { context in
            context.insert(NoteSchemaV1.Memo(text: "c"))
        }
        _ = try ModelContainer(for: NoteSchemaV2.Memo.self, configurations: ModelConfiguration(url: url))
        #expect(!FileManager.default.fileExists(atPath: url.path + ".backup"))
        #expect(try rawColumns(url, table: "Memo") == ["_pk", "body", "isFavorite", "pinnedAt"])
        #expect(try rawRow(url, sql: "SELECT body FROM Memo")[0] as String == "c")
    }

    /// A V2 store holding one memo, pinned at the reference date.
    private func seedMemoV2(_ url: URL, body: String) throws {
        let context = ModelContext(try ModelContainer(for: NoteSchemaV2.Memo.self, configurations: ModelConfiguration(url: url)))
        let memo = NoteSchemaV2.Memo(body: body)
        memo.pinnedAt = Date(timeIntervalSinceReferenceDate: 0)
        context.insert(memo)
        try context.save()
    }

    @Test func addingAndRenamingKeepsIndicesOfUntouchedColumns() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: MemberSchemaV1.Member.self) { context in
            context.insert(MemberSchemaV1.Member(handle: "ada", name: "Ada Lovelace"))
        }
        _ = try ModelContainer(for: MemberSchemaV2.Member.self, configurations: ModelConfiguration(url: url))
        let sql = try rawRow(url, sql: "SELECT sql FROM _osd_migrations")[0] as String
        // The unique index on the untouched handle stays; the one on the renamed column is
        // replaced under its new name.
        #expect(!sql.contains("DROP INDEX \"Member_unique_handle\""))
        #expect(sql.contains("DROP INDEX \"Member_index_name\""))
        let indices = try DatabaseQueue(path: url.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Member' AND sql IS NOT NULL ORDER BY name")
        }
        #expect(indices == ["Member_index_fullName", "Member_unique_handle"])

        let context = ModelContext(try ModelContainer(for: MemberSchemaV2.Member.self, configurations: ModelConfiguration(url: url)))
        context.insert(MemberSchemaV2.Member(handle: "ada", fullName: "Augusta Ada King"))
        try context.save()
        let members = try context.fetch(FetchDescriptor<MemberSchemaV2.Member>())
        #expect(members.map(\.fullName) == ["Augusta Ada King"])
    }

    @Test func aOneWayRelationshipThatGainsAnInverseKeepsItsPairs() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Schema(versionedSchema: CastSchemaV1.self)) { context in
            let film = CastSchemaV1.CastFilm(title: "Up")
            context.insert(film)
            film.actors = [CastSchemaV1.CastActor(name: "Ed Asner"), CastSchemaV1.CastActor(name: "Jordan Nagai")]
        }
        let container = try ModelContainer(for: Schema(versionedSchema: CastSchemaV2.self), configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        let film = try #require(try context.fetch(FetchDescriptor<CastSchemaV2.CastFilm>()).first)
        #expect(film.actors.map(\.name).sorted() == ["Ed Asner", "Jordan Nagai"])
        let actors = try context.fetch(FetchDescriptor<CastSchemaV2.CastActor>())
        #expect(actors.allSatisfy { $0.films.map(\.title) == ["Up"] })
    }

    @Test func aRelationshipThatChangesDestinationIsRefused() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: Schema(versionedSchema: PetSchemaV1.self)) { context in
            context.insert(PetSchemaV1.Vet(name: "Dr Bob"))
            context.insert(PetSchemaV1.Pet(name: "Rex", owner: PetSchemaV1.PetOwner(name: "Ann")))
        }
        let before = try Data(contentsOf: url)
        let error = #expect(throws: SwiftDataError.self) {
            try ModelContainer(for: Schema(versionedSchema: PetSchemaV2.self), configurations: ModelConfiguration(url: url))
        }
        #expect(error?.description.contains("Pet.owner changes destination from PetOwner to Vet") == true)
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func renamesOntoNamesOldColumnsHoldMoveTheValues() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: SwapSchemaV1.Entry.self) { context in
            context.insert(SwapSchemaV1.Entry(left: "L", right: "R", old: "gone", label: "kept"))
        }
        let context = ModelContext(try ModelContainer(
            for: Schema(versionedSchema: SwapSchemaV2.self), migrationPlan: SwapPlan.self, configurations: ModelConfiguration(url: url)))
        let entry = try #require(try context.fetch(FetchDescriptor<SwapSchemaV2.Entry>()).first)
        #expect([entry.left, entry.right, entry.old] == ["R", "L", "kept"])
    }

    @Test func externalStorageTurnedOnRenamedAndTurnedOffKeepsTheBytes() throws {
        let url = temporaryStoreURL()
        let bytes = Data((0..<300).map { UInt8($0 % 251) })
        try writeStore(url, for: PictureSchemaV1.Picture.self) { context in
            context.insert(PictureSchemaV1.Picture(name: "a", bytes: bytes, caption: Data("hi".utf8)))
            context.insert(PictureSchemaV1.Picture(name: "b", bytes: Data([1]), caption: nil))
        }
        do {
            // Only `.externalStorage` changes: a migration all the same, not a crash on first read.
            let container = try ModelContainer(
                for: Schema(versionedSchema: PictureSchemaV2.self), migrationPlan: PicturePlan.self, configurations: ModelConfiguration(url: url))
            let pictures = try ModelContext(container).fetch(FetchDescriptor<PictureSchemaV2.Picture>(sortBy: [SortDescriptor(\.name)]))
            #expect(pictures.map(\.bytes) == [bytes, Data([1])])
            #expect(pictures.map(\.caption) == [Data("hi".utf8), nil])
            #expect(try rawColumns(url, table: "Picture") == ["_pk", "name"])
        }
        let container = try ModelContainer(
            for: Schema(versionedSchema: PictureSchemaV3.self), migrationPlan: PicturePlan.self, configurations: ModelConfiguration(url: url))
        let pictures = try ModelContext(container).fetch(FetchDescriptor<PictureSchemaV3.Picture>(sortBy: [SortDescriptor(\.name)]))
        #expect(pictures.map(\.image) == [bytes, Data([1])])
        #expect(pictures.map(\.caption) == [Data("hi".utf8), nil])
        #expect(try rawColumns(url, table: "Picture") == ["_pk", "name", "caption"])
        let sideTables = try DatabaseQueue(path: url.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '\\_osd\\_external%' ESCAPE '\\' ORDER BY name")
        }
        #expect(sideTables == ["_osd_external_Picture_image"])
    }
}
