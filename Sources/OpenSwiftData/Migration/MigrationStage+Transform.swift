extension MigrationStage {
    /// A custom stage that hands you each model as it was and as it becomes, typed, in one
    /// pass — OpenSwiftData's answer to SwiftData stages that can see only old types in
    /// `willMigrate` and only new ones in `didMigrate`, which send data through `UserDefaults`.
    ///
    /// ```swift
    /// static let migrateV1toV2 = MigrationStage.transform(
    ///     fromVersion: PixarSchemaV1.self, toVersion: PixarSchemaV2.self,
    ///     model: PixarSchemaV1.PixarFilm.self, to: PixarSchemaV2.PixarFilm.self
    /// ) { old, new in
    ///     new.releaseYear = Calendar.current.component(.year, from: old.releaseDate)
    ///     new.releaseCountry = "US"
    /// }
    /// ```
    ///
    /// The store's structure changes first: new non-optional attributes start with their
    /// default, or their type's empty value when they have none, for `transform` to fill. Then
    /// every row of the entity is visited, `batchSize` at a time, with the old and the new model
    /// of the same row; each batch is saved into the migration and let go, so memory stays
    /// bounded by the batch. A saved batch's models that nothing else holds are given rows of
    /// later batches rather than made again, so keep (strongly) any model you need after its
    /// step. `willMigrate` runs first, as in any custom stage. The old and new models must be
    /// versions of one entity (the same class name).
    ///
    /// When the new version only adds attributes, their columns are added in place and the old
    /// and new models read the same rows: an old model shows a change your closure saved earlier
    /// to another row's shared property. Keep each step to its own row, or read what you need
    /// in `willMigrate`. When the table is rebuilt, old models read the rows as they were.
    ///
    /// - Parameters:
    ///   - fromVersion: the version the stage migrates from.
    ///   - toVersion: the next version, which the stage migrates to.
    ///   - oldType: the entity's model class in `fromVersion`.
    ///   - newType: the same entity's model class in `toVersion`.
    ///   - batchSize: the rows visited, saved and let go together.
    ///   - willMigrate: runs first, with the old version's models, as in any custom stage.
    ///   - transform: called once per row with its old and new model; set the new model's values.
    /// - Returns: a custom stage; put it in the plan's `stages`.
    public static func transform<Old: PersistentModel, New: PersistentModel>(
        fromVersion: any VersionedSchema.Type,
        toVersion: any VersionedSchema.Type,
        model oldType: Old.Type,
        to newType: New.Type,
        batchSize: Int = 1000,
        willMigrate: ((_ context: ModelContext) throws -> Void)? = nil,
        transform: @escaping (_ old: Old, _ new: New) throws -> Void
    ) -> MigrationStage {
        .custom(fromVersion: fromVersion, toVersion: toVersion, willMigrate: willMigrate, didMigrate: { context in
            guard let session = context.container.migrationSession else {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "a transform stage's closure can only run inside a migration")
            }
            try context.transformEach(Old.self, into: New.self, from: session.oldContext(), batchSize: batchSize, transform)
        })
    }
}

extension ModelContext {
    /// Visits every row of `New`'s entity with its old and new model, saving batch by batch.
    func transformEach<Old: PersistentModel, New: PersistentModel>(
        _ oldType: Old.Type, into newType: New.Type, from oldContext: ModelContext, batchSize: Int,
        _ transform: (Old, New) throws -> Void
    ) throws {
        let oldName = Schema.entityName(for: Old.self)
        let newName = Schema.entityName(for: New.self)
        guard oldName == newName else {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "a transform stage pairs \(oldName) with \(newName), but only versions of one entity can be paired; copy between different entities in didMigrate instead")
        }
        let newQuery = try FetchPlan(FetchDescriptor<New>(), in: self)
        let oldQuery = try FetchPlan(FetchDescriptor<Old>(), in: oldContext)
        // The rows there are now, in key order: rows the closure inserts get larger keys, so
        // each batch's key range holds only rows of the batch.
        let rowIDs = try newQuery.store.fetchRowIDs(RowSelection(newQuery.table))
        // When the migration only added columns to a SQLite table, one read of each row gives
        // the old and the new model.
        let oldReading = oldQuery.table.rowDecoder(readingRowsOf: newQuery.table)
        // Each batch's models that can stand for the next batch's rows (see `SpareModels`).
        var oldSpares = SpareModels()
        var newSpares = SpareModels()
        var visited = 0
        for batch in rowIDs.chunked(by: max(batchSize, 1)) {
            defer {
                visited += batch.count
                container.migrationSession?.reportRows?(newName, visited, rowIDs.count)
            }
            let keys = batch.first!...batch.last!
            let olds: [Old]
            let news: [New]
            if let oldReading, let store = newQuery.store as? SQLiteStore {
                (olds, news) = try modelPairs(
                    in: keys, store, newQuery, readingOldAs: oldReading, oldQuery, in: oldContext, reusing: &oldSpares, &newSpares)
                for index in news.indices { try transform(olds[index], news[index]) }
            } else {
                // Both lists come in key order; a row one side lacks (the closure deleted it in
                // an earlier batch) is skipped.
                let (oldRowIDs, keyedOlds) = try oldContext.keyedModels(Old.self, rowIDsIn: keys, oldQuery, reusing: &oldSpares)
                let (newRowIDs, keyedNews) = try keyedModels(New.self, rowIDsIn: keys, newQuery, reusing: &newSpares)
                var oldIndex = 0
                for (newIndex, rowID) in newRowIDs.enumerated() {
                    while oldIndex < oldRowIDs.count, oldRowIDs[oldIndex] < rowID { oldIndex += 1 }
                    guard oldIndex < oldRowIDs.count, oldRowIDs[oldIndex] == rowID else { continue }
                    try transform(keyedOlds[oldIndex], keyedNews[newIndex])
                }
                (olds, news) = (consume keyedOlds, consume keyedNews)
            }
            try save()
            forgetUnchanged(consume news, keepingSparesIn: &newSpares)
            oldContext.forgetUnchanged(consume olds, keepingSparesIn: &oldSpares)
        }
    }

    /// The old and the new model of each row whose key is in `keys`, in key order, from one
    /// read of each row: `oldReading` reads the old model's values from the new table's rows.
    ///
    /// Both models are made as the row is read, so each model's values are its own and the
    /// transform's first change to them copies nothing.
    private func modelPairs<Old: PersistentModel, New: PersistentModel>(
        in keys: ClosedRange<Int64>, _ store: SQLiteStore, _ newQuery: FetchPlan, readingOldAs oldReading: RowDecoder, _ oldQuery: FetchPlan,
        in oldContext: ModelContext, reusing oldSpares: inout SpareModels, _ newSpares: inout SpareModels
    ) throws -> ([Old], [New]) {
        var olds: [Old] = []
        let news: [New] = try materializeRows(newQuery, reusing: &newSpares) { newRow in
            olds = try oldContext.materializeRows(oldQuery, reusing: &oldSpares) { oldRow in
                try store.forEachRow(newQuery.table, rowIDsIn: keys, alsoReadAs: oldReading) { rowID, new, old in
                    try newRow(rowID, new)
                    try oldRow(rowID, old)
                }
            }
        }
        return (olds, news)
    }
}
