import Foundation

/// Decides what a migration does to a store before any of it runs: from the store's recorded
/// schema, the schema the container opens it with and the app's plan (if any), the steps that
/// bring the store up to date, refusing a broken plan, a store no version describes, a store
/// newer than the app, and every change no rows could make acceptable (an attribute changing
/// type, a relationship changing destination or storage) — all before the store is touched or
/// any code of the plan's runs. A dry run and a real migration start from the same plan.
package enum MigrationPlanner {
    /// The migration `url`'s store needs to reach `target`, or `nil` when it is up to date.
    ///
    /// - Parameters:
    ///   - stored: the store's metadata, read once by the caller.
    ///   - versions: the app's plan, checked once per container; `nil` without a plan.
    ///   - entitiesElsewhere: the container's entities this store does not hold (another
    ///     configuration's); empty when it holds them all.
    ///   - backingUp: whether the configuration allows a copy before a migration that can drop
    ///     or rewrite stored values.
    /// - Throws: ``SwiftDataError`` naming the store, the versions and the fix, when the
    ///   migration would be refused.
    static func migration(
        of url: URL, stored: StoreMetadata, to target: Schema, versions: PlanVersions?, entitiesElsewhere: Set<String>,
        backingUp: Bool
    ) throws -> PlannedMigration? {
        // A store with the models' structure is up to date, unless a plan's version of the same
        // structure is still to be recorded: custom stages between its version and the models'
        // still run (a store holding some of the entities can keep its structure through
        // versions), and a store written before stores recorded their version gets it once.
        let recordsTargetVersion = versions == nil || stored.versionIdentifier == target.version.description
        let store = "the store \(url.path)"
        // A store of format 1 holding decimals has them rewritten first, whatever else is done.
        let recorded = stored.fingerprint == target.fingerprint ? target : try stored.schema(of: store)
        let upgrade = DecimalTextUpgrade.isNeeded(stored, recorded: recorded.entities)
            ? [MigrationStep.decimalTextUpgrade(of: recorded)] : []
        let upToDate = stored.fingerprint == target.fingerprint && recordsTargetVersion
        if upToDate, upgrade.isEmpty { return nil }
        let steps = try upgrade + (upToDate ? [] : self.steps(
            stored: stored, target: target, versions: versions, entitiesElsewhere: entitiesElsewhere, store: store,
            backingUp: backingUp))
        let migration = PlannedMigration(
            url: url, stored: stored, target: target, steps: steps, dropsRemovedEntities: versions != nil,
            backsUp: backingUp && !steps.allSatisfy(\.keepsEveryStoredValue))
        for restructuring in try migration.restructurings {
            let problems = restructuring.structuralProblems()
            if !problems.isEmpty { throw restructuring.refusal(problems) }
        }
        return migration
    }

    /// The steps from a store's recorded schema to `target` for a store of another database
    /// (the PostgreSQL store), with every refusal the planner makes from structure alone:
    /// a store newer than the app, one matching no version, a versioned store opened without
    /// the plan. Empty when the store is up to date.
    ///
    /// - Parameters:
    ///   - store: the store, as messages name it.
    ///   - recordedSchemaJSON, fingerprint, versionIdentifier, isVersioned: what the store records.
    package static func schemaSteps(
        of store: String, recordedSchemaJSON: String, fingerprint: String, versionIdentifier: String, isVersioned: Bool,
        to target: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?
    ) throws -> [PlannedSchemaStep] {
        let metadata = StoreMetadata(
            storeIdentifier: "", formatVersion: StoreMetadata.currentFormatVersion, schemaJSON: recordedSchemaJSON,
            fingerprint: fingerprint, versionIdentifier: versionIdentifier, isVersioned: isVersioned)
        let versions = try migrationPlan.map { try PlanVersions(validating: $0) }
        guard fingerprint != target.fingerprint || (versions != nil && versionIdentifier != target.version.description) else { return [] }
        return try steps(stored: metadata, target: target, versions: versions, entitiesElsewhere: [], store: store, backingUp: false)
            .map {
                PlannedSchemaStep(
                    from: $0.from, to: $0.to, fromName: $0.fromName, toName: $0.toName, willMigrate: $0.willMigrate, didMigrate: $0.didMigrate)
            }
    }

    private static func steps(
        stored metadata: StoreMetadata, target: Schema, versions plan: PlanVersions?, entitiesElsewhere: Set<String>,
        store: String, backingUp: Bool
    ) throws -> [MigrationStep] {
        let stored = try metadata.schema(of: store)
        guard let plan else {
            if stored.version > target.version {
                throw SwiftDataError.backwardMigration.explaining(
                    "\(store) was written by version \(stored.version) of the schema, newer than this app's \(target.version); it was left untouched. Update the app")
            }
            // The app's plan may have a custom stage between the store's version and these
            // models, which only a process with the plan can run: a plan-less container (an
            // extension, often) never steps a versioned store over it.
            if metadata.isVersioned || target.isVersioned {
                throw SwiftDataError.unknownSchema.explaining(
                    "\(store) records version \(metadata.versionIdentifier) of versioned models, and its structure differs from the models it is opened with (\(SchemaComparison(from: stored.entities, to: target.entities))). Without the app's migration plan a container opens such a store only once it has the models' structure, so that no custom stage of the plan is stepped over; it was left untouched. Open it with the app's SchemaMigrationPlan (ModelContainer(for:migrationPlan:configurations:)); an app extension should open the store once the app has migrated it")
            }
            return [MigrationStep(
                from: stored, to: target, fromName: "the stored schema \(stored.version)",
                toName: "the current models \(target.version)", willMigrate: nil, didMigrate: nil)]
        }
        let planVersions = plan.restricted(to: entitiesOfThisStore(
            in: plan, target: target, stored: stored, entitiesElsewhere: entitiesElsewhere))
        let versions = planVersions.versions
        guard let targetIndex = planVersions.index(of: target) else {
            let nearest = planVersions.nearest(to: target.entities)
            throw SwiftDataError.unknownSchema.explaining(
                "the models \(store) is opened with match no version of \(plan.plan); they differ from the nearest, \(nearest.version.name), by: \(nearest.difference). Declare them as a VersionedSchema in the plan")
        }
        if let newest = versions.last, stored.version > newest.schema.version {
            throw SwiftDataError.backwardMigration.explaining(
                "\(store) was written by schema version \(stored.version), newer than every version this app declares (up to \(newest.name)); it was left untouched. Update the app")
        }
        var steps: [MigrationStep] = []
        var storeIndex = storeVersion(recorded: metadata, among: versions, upTo: targetIndex)
        if storeIndex == nil {
            if let recorded = versions.firstIndex(where: { $0.schema.version.description == metadata.versionIdentifier }),
               isSmallLightweightChange(from: stored.entities, to: versions[recorded].schema) {
                // A shipped version edited in place: bring the store to what the version now
                // declares, if that is lightweight, then carry on. What the edit removed is
                // dropped only with a backup of the store beside it.
                let version = versions[recorded]
                let repair = MigrationStep(
                    from: stored, to: version.schema, fromName: "the stored \(version.name)",
                    toName: version.name, willMigrate: nil, didMigrate: nil)
                let difference = SchemaComparison(from: stored.entities, to: version.schema.entities)
                if !repair.droppedProperties.isEmpty, !backingUp {
                    throw SwiftDataError.loadIssueModelContainer.explaining(
                        "\(store) records version \(version.name) but its structure differs from what that version declares now (\(difference)); bringing it to the version would drop \(repair.droppedProperties.joined(separator: ", ")) with their stored values, and backsUpBeforeMigrating is off, so it was left untouched. Restore the version as it shipped and add the change as a new version, or turn backups on")
                }
                migrationLog.warning(
                    "\(store) records version \(version.name) but its structure differs from what that version declares now (\(difference)); migrating it as a lightweight change. Freeze shipped versions instead of editing them")
                steps.append(repair)
                storeIndex = recorded
            } else {
                let nearest = planVersions.nearest(to: stored.entities)
                throw SwiftDataError.unknownSchema.explaining(
                    "\(store) has a structure that matches no version of \(plan.plan); it differs from the nearest, \(nearest.version.name), by: \(nearest.difference). It was left untouched. Declare the version it was written with (copy the models as they shipped) as the plan's first schema")
            }
        }
        guard let start = storeIndex else { return steps }
        if start > targetIndex {
            throw SwiftDataError.backwardMigration.explaining(
                "\(store) is at \(versions[start].name), newer than the models the container opens it with (\(versions[targetIndex].name)); it was left untouched. Open it with the newer models")
        }
        for index in start..<targetIndex {
            let from = versions[index]
            let to = versions[index + 1]
            // A version that changes only other stores' entities changes nothing here.
            if from.schema.fingerprint == to.schema.fingerprint { continue }
            let (willMigrate, didMigrate) = planVersions.customClosures(after: index)
            steps.append(MigrationStep(
                from: from.schema, to: to.schema, fromName: from.name, toName: to.name,
                willMigrate: willMigrate, didMigrate: didMigrate))
        }
        return steps
    }

    /// The entities of the plan's versions that the store holds, whichever version it is at.
    ///
    /// A version's entities are not the store's: a newer version may no longer list an entity
    /// an older one stored (dropped, or its class renamed without `originalName`), and the
    /// store must still be recognised as the older version, to drop it. A store holding every
    /// entity of the container holds every entity of every version. A store holding some (one
    /// of several configurations) holds the entities its configuration names and, of the others,
    /// the ones it records that the container does not hold elsewhere; an entity that only
    /// versions between the store's and the newest list belongs to no such store, and the
    /// plan's steps there change no table of it.
    private static func entitiesOfThisStore(
        in plan: PlanVersions, target: Schema, stored: Schema, entitiesElsewhere: Set<String>
    ) -> Set<String> {
        guard !entitiesElsewhere.isEmpty else {
            return Set(plan.versions.flatMap { $0.schema.entities.map(\.name) })
        }
        return Set(target.entities.map(\.name)).union(stored.entities.map(\.name)).subtracting(entitiesElsewhere)
    }

    /// The version a store is at: among the versions with its structure, the one it records,
    /// or else the newest up to the target (several versions restricted to one store's entities
    /// can share a structure).
    private static func storeVersion(recorded metadata: StoreMetadata, among versions: [PlanVersions.Version], upTo targetIndex: Int) -> Int? {
        let candidates = versions.indices.filter { versions[$0].schema.fingerprint == metadata.fingerprint }
        return candidates.first { versions[$0].schema.version.description == metadata.versionIdentifier }
            ?? candidates.last { $0 <= targetIndex }
            ?? candidates.first
    }

    /// Whether a store's structure differs from a version only in ways a lightweight step
    /// handles without guessing: the same entities, no attribute changing type, and every
    /// attribute the version adds optional or defaulted.
    private static func isSmallLightweightChange(from stored: [Schema.Entity], to version: Schema) -> Bool {
        guard Set(stored.map(\.name)) == Set(version.entities.map(\.name)) else { return false }
        let storedByName = Dictionary(stored.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for entity in version.entities {
            guard let old = storedByName[entity.name] else { return false }
            for attribute in entity.attributesInOrder {
                if let previous = old.attribute(continuedBy: attribute) {
                    if previous.storageType != attribute.storageType { return false }
                } else if !attribute.isOptional, attribute.defaultValue == nil {
                    return false
                }
            }
        }
        return true
    }
}
