/// One step of a migration: from one structure to the next, with the custom stage's closures
/// when the plan declares one.
struct MigrationStep {
    let from: Schema
    let to: Schema
    let fromName: String
    let toName: String
    let willMigrate: ((ModelContext) throws -> Void)?
    let didMigrate: ((ModelContext) throws -> Void)?
}

/// Turns a store's recorded schema, the schema the container opens it with, and the app's
/// migration plan (if any) into the steps that bring the store up to date — after checking the
/// plan, so a broken plan is reported before the store is touched.
enum MigrationPlanner {
    /// - Parameters:
    ///   - store: the store's description, for messages.
    ///   - backingUp: whether the store is copied before the migration.
    static func steps(
        stored metadata: StoreMetadata, target: Schema, plan: (any SchemaMigrationPlan.Type)?, store: String,
        backingUp: Bool
    ) throws -> [MigrationStep] {
        let stored = try metadata.schema()
        guard let plan else {
            if stored.version > target.version {
                throw SwiftDataError.backwardMigration.explaining(
                    "\(store) was written by version \(stored.version) of the schema, newer than this app's \(target.version); it was left untouched. Update the app")
            }
            return [MigrationStep(
                from: stored, to: target, fromName: "the stored schema \(stored.version)",
                toName: "the current models \(target.version)", willMigrate: nil, didMigrate: nil)]
        }
        // A store holding some of the container's entities (one of several configurations)
        // goes through the plan's versions restricted to those entities.
        let versions = try validatedVersions(of: plan).map { $0.restricted(to: target.entities.map(\.name)) }
        guard let targetIndex = versions.firstIndex(where: { $0.schema.version == target.version && $0.schema.fingerprint == target.fingerprint })
            ?? versions.firstIndex(where: { $0.schema.fingerprint == target.fingerprint })
        else {
            let nearest = nearestVersion(to: target.entities, in: versions)
            throw SwiftDataError.unknownSchema.explaining(
                "the models \(store) is opened with match no version of \(plan); they differ from the nearest, \(nearest.version.name), by: \(nearest.difference). Declare them as a VersionedSchema in the plan")
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
                let difference = SchemaDifference(from: stored.entities, to: version.schema.entities)
                if !repair.droppedProperties.isEmpty, !backingUp {
                    throw SwiftDataError.loadIssueModelContainer.explaining(
                        "\(store) records version \(version.name) but its structure differs from what that version declares now (\(difference)); bringing it to the version would drop \(repair.droppedProperties.joined(separator: ", ")) with their stored values, and backsUpBeforeMigrating is off, so it was left untouched. Restore the version as it shipped and add the change as a new version, or turn backups on")
                }
                migrationLog.warning(
                    "\(store) records version \(version.name) but its structure differs from what that version declares now (\(difference)); migrating it as a lightweight change. Freeze shipped versions instead of editing them")
                steps.append(repair)
                storeIndex = recorded
            } else {
                let nearest = nearestVersion(to: stored.entities, in: versions)
                throw SwiftDataError.unknownSchema.explaining(
                    "\(store) has a structure that matches no version of \(plan); it differs from the nearest, \(nearest.version.name), by: \(nearest.difference). It was left untouched. Declare the version it was written with (copy the models as they shipped) as the plan's first schema")
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
            var willMigrate: ((ModelContext) throws -> Void)?
            var didMigrate: ((ModelContext) throws -> Void)?
            for stage in plan.stages {
                if case .custom(let stageFrom, let stageTo, let will, let did) = stage,
                   stageFrom == from.type, stageTo == to.type {
                    willMigrate = will
                    didMigrate = did
                }
            }
            steps.append(MigrationStep(
                from: from.schema, to: to.schema, fromName: from.name, toName: to.name,
                willMigrate: willMigrate, didMigrate: didMigrate))
        }
        return steps
    }

    /// The version a store is at: among the versions with its structure, the one it records,
    /// or else the newest up to the target (several versions restricted to one store's entities
    /// can share a structure).
    private static func storeVersion(recorded metadata: StoreMetadata, among versions: [VersionInfo], upTo targetIndex: Int) -> Int? {
        let candidates = versions.indices.filter { versions[$0].schema.fingerprint == metadata.fingerprint }
        return candidates.first { versions[$0].schema.version.description == metadata.versionIdentifier }
            ?? candidates.last { $0 <= targetIndex }
            ?? candidates.first
    }

    /// The plan's versions, each with its schema built once, after ``validate(_:_:)``.
    private static func validatedVersions(of plan: any SchemaMigrationPlan.Type) throws -> [VersionInfo] {
        let versions = plan.schemas.map { VersionInfo($0) }
        try validate(plan, versions)
        return versions
    }

    /// Checks the plan, and that the container's models are one of its versions; returns the
    /// versions and the index of that one. Runs whenever a container is given a plan, before any
    /// store is opened.
    @discardableResult
    static func check(_ plan: any SchemaMigrationPlan.Type, target: Schema) throws -> (versions: [VersionInfo], targetIndex: Int) {
        let versions = try validatedVersions(of: plan)
        guard let targetIndex = versions.firstIndex(where: { $0.schema.fingerprint == target.fingerprint }) else {
            let nearest = nearestVersion(to: target.entities, in: versions)
            throw SwiftDataError.unknownSchema.explaining(
                "the models the container was created with match no version of \(plan); they differ from the nearest, \(nearest.version.name), by: \(nearest.difference). Declare them as a VersionedSchema in the plan")
        }
        return (versions, targetIndex)
    }

    /// One version of a plan, with its schema built once.
    struct VersionInfo {
        let type: any VersionedSchema.Type
        let schema: Schema
        var name: String { "\(type) (\(type.versionIdentifier))" }

        init(_ type: any VersionedSchema.Type) {
            self.type = type
            schema = Schema(versionedSchema: type)
        }

        private init(type: any VersionedSchema.Type, schema: Schema) {
            self.type = type
            self.schema = schema
        }

        /// The version with only the entities one store holds.
        func restricted(to entityNames: [String]) -> VersionInfo {
            VersionInfo(type: type, schema: schema.restricted(to: entityNames))
        }
    }

    /// Refuses a plan whose versions share a structure, are out of order, or whose stages name
    /// versions outside the plan, skip versions or go backwards.
    static func validate(_ plan: any SchemaMigrationPlan.Type, _ versions: [VersionInfo]) throws {
        guard !versions.isEmpty else {
            throw SwiftDataError.loadIssueModelContainer.explaining("\(plan).schemas is empty; list every version of the models, oldest first")
        }
        for version in versions {
            try version.schema.validate()
        }
        for (index, version) in versions.enumerated() {
            for earlier in versions[..<index] where earlier.schema.fingerprint == version.schema.fingerprint {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "\(plan) declares \(earlier.name) and \(version.name) with identical structure, so a store cannot tell them apart (SwiftData crashes with \"Duplicate version checksums detected\"). Remove one of them: adding a property with a default value, or changing a default or a delete rule, needs no new version. If only the meaning of stored data changed, set a hashModifier on the affected property")
            }
            if index > 0, !(versions[index - 1].schema.version < version.schema.version) {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "\(plan).schemas must go from oldest to newest, but \(version.name) follows \(versions[index - 1].name); order them by versionIdentifier")
            }
        }
        for stage in plan.stages {
            let (from, to) = stage.versions
            guard let fromIndex = versions.firstIndex(where: { $0.type == from }) else {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "a stage of \(plan) migrates from \(from), which is not in \(plan).schemas; add it there")
            }
            guard let toIndex = versions.firstIndex(where: { $0.type == to }) else {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "a stage of \(plan) migrates to \(to), which is not in \(plan).schemas; add it there")
            }
            if toIndex <= fromIndex {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "a stage of \(plan) goes backwards, from \(versions[fromIndex].name) to \(versions[toIndex].name); stages go from a version to the next one")
            }
            if toIndex != fromIndex + 1 {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "a stage of \(plan) goes from \(versions[fromIndex].name) to \(versions[toIndex].name), skipping \(versions[fromIndex + 1].name); declare one stage per pair of consecutive versions")
            }
        }
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

    private static func nearestVersion(to entities: [Schema.Entity], in versions: [VersionInfo])
        -> (version: VersionInfo, difference: SchemaDifference) {
        versions.map { ($0, SchemaDifference(from: $0.schema.entities, to: entities)) }
            .min { $0.1.changes.count < $1.1.changes.count }!
    }
}

extension MigrationStage {
    /// The versions the stage goes from and to.
    var versions: (from: any VersionedSchema.Type, to: any VersionedSchema.Type) {
        switch self {
        case .lightweight(let from, let to): (from, to)
        case .custom(let from, let to, _, _): (from, to)
        }
    }
}

extension MigrationStep {
    /// What the step drops with its stored values: the old version's entities, attributes and
    /// relationships that the new one neither keeps under their name nor continues through an
    /// `originalName`, as "entity Name", "Entity.attribute", "Entity.relationship".
    var droppedProperties: [String] {
        from.entities.flatMap { old -> [String] in
            guard let new = to.entitiesByName[old.name] else { return ["entity \(old.name)"] }
            let attributes = old.attributesInOrder.filter { attribute in
                !new.attributesInOrder.contains { $0.name == attribute.name || $0.originalName == attribute.name }
            }.map(\.name)
            let relationships = old.relationshipsInOrder.filter { relationship in
                !new.relationshipsInOrder.contains { $0.name == relationship.name || $0.originalName == relationship.name }
            }.map(\.name)
            return (attributes + relationships).map { "\(old.name).\($0)" }
        }
    }

    /// Whether the step can only add to the store or rename what it holds: it has no custom
    /// stage, and every entity, attribute and relationship of the old version is still there
    /// (under its name, or as a new property's `originalName`) with the same kind of storage.
    /// Such a step changes no stored value, so the transaction it runs in is all the protection
    /// it needs; anything else is backed up first (see `ModelConfiguration.backsUpBeforeMigrating`).
    var keepsEveryStoredValue: Bool {
        guard willMigrate == nil, didMigrate == nil else { return false }
        return from.entities.allSatisfy { old in
            guard let new = to.entitiesByName[old.name] else { return false }
            let attributesKept = old.attributesInOrder.allSatisfy { attribute in
                new.attributesInOrder.contains { kept in
                    (kept.name == attribute.name || kept.originalName == attribute.name)
                        && kept.storageType == attribute.storageType && kept.isOptional == attribute.isOptional
                        && kept.options.contains(.externalStorage) == attribute.options.contains(.externalStorage)
                }
            }
            let relationshipsKept = old.relationshipsInOrder.allSatisfy { relationship in
                new.relationshipsInOrder.contains { kept in
                    (kept.name == relationship.name || kept.originalName == relationship.name)
                        && kept.destination == relationship.destination && kept.isToOne == relationship.isToOne
                        && kept.inverseName == relationship.inverseName
                }
            }
            return attributesKept && relationshipsKept
        }
    }
}
