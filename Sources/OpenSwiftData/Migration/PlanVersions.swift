/// A migration plan's versions, oldest first, each with its schema built once.
///
/// Made only through ``init(validating:)``: holding one means the plan is well formed (distinct
/// structures, versions in order, one stage per pair of consecutive versions), so the plan is
/// checked once per container, whatever the number of its stores.
struct PlanVersions {
    /// One version of the plan, with its schema.
    struct Version {
        let type: any VersionedSchema.Type
        let schema: Schema
        var name: String { "\(type) (\(type.versionIdentifier))" }
    }

    let plan: any SchemaMigrationPlan.Type
    let versions: [Version]

    /// Builds every version's schema and checks the plan.
    ///
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` naming every problem and its fix:
    ///   no versions, a version whose models are invalid, two versions with one structure,
    ///   versions out of order, a stage naming a version outside the plan, skipping one or going
    ///   backwards.
    init(validating plan: any SchemaMigrationPlan.Type) throws {
        let versions = Self.versions(of: plan)
        try Self.validate(plan, versions)
        self.plan = plan
        self.versions = versions
    }

    /// Each version of the plan with its schema, unchecked.
    static func versions(of plan: any SchemaMigrationPlan.Type) -> [Version] {
        plan.schemas.map { Version(type: $0, schema: Schema(versionedSchema: $0)) }
    }

    private init(plan: any SchemaMigrationPlan.Type, versions: [Version]) {
        self.plan = plan
        self.versions = versions
    }

    /// The versions with only the entities one store holds (one of several configurations).
    func restricted(to entityNames: Set<String>) -> PlanVersions {
        PlanVersions(plan: plan, versions: versions.map {
            Version(type: $0.type, schema: $0.schema.restricted(to: entityNames))
        })
    }

    /// The version whose structure `target` has: the one of its version number if several
    /// share the structure, else the first.
    func index(of target: Schema) -> Int? {
        versions.firstIndex { $0.schema.version == target.version && $0.schema.fingerprint == target.fingerprint }
            ?? versions.firstIndex { $0.schema.fingerprint == target.fingerprint }
    }

    /// The version of the plan whose structure a container's models have.
    ///
    /// - Throws: ``SwiftDataError/unknownSchema`` naming the nearest version and the difference
    ///   when the models match none.
    func version(ofModels models: Schema) throws -> Schema.Version {
        guard let version = versions.first(where: { $0.schema.fingerprint == models.fingerprint }) else {
            let nearest = nearest(to: models.entities)
            throw SwiftDataError.unknownSchema.explaining(
                "the models the container was created with match no version of \(plan); they differ from the nearest, \(nearest.version.name), by: \(nearest.difference). Declare them as a VersionedSchema in the plan")
        }
        return version.schema.version
    }

    /// The custom stage's closures from the version at `index` to the next, if the plan declares one.
    func customClosures(after index: Int) -> (willMigrate: ((ModelContext) throws -> Void)?, didMigrate: ((ModelContext) throws -> Void)?) {
        for stage in plan.stages {
            if case .custom(let from, let to, let willMigrate, let didMigrate) = stage,
               from == versions[index].type, to == versions[index + 1].type {
                return (willMigrate, didMigrate)
            }
        }
        return (nil, nil)
    }

    /// The version nearest to `entities` (fewest changes), with the changes.
    func nearest(to entities: [Schema.Entity]) -> (version: Version, difference: SchemaComparison) {
        Self.nearest(to: entities, in: versions)
    }

    /// Of `versions`, the one nearest to `entities`, with the changes.
    static func nearest(to entities: [Schema.Entity], in versions: [Version]) -> (version: Version, difference: SchemaComparison) {
        versions.map { ($0, SchemaComparison(from: $0.schema.entities, to: entities)) }
            .min { $0.1.changes.count < $1.1.changes.count }!
    }

    private static func validate(_ plan: any SchemaMigrationPlan.Type, _ versions: [Version]) throws {
        let problems = problems(of: plan, versions).map(\.message)
        guard !problems.isEmpty else { return }
        throw SwiftDataError.loadIssueModelContainer.explaining(
            problems.count == 1 ? problems[0] : "\(plan) has \(problems.count) problems:\n" + problems.map { "- \($0)" }.joined(separator: "\n"))
    }

    /// Every problem of a plan, each with the version it concerns (if one) and its fix:
    /// no versions, invalid models, versions sharing a structure or out of order, stages
    /// naming versions outside the plan, skipping versions or going backwards.
    static func problems(of plan: any SchemaMigrationPlan.Type, _ versions: [Version]) -> [(version: String?, message: String)] {
        guard !versions.isEmpty else {
            return [(nil, "\(plan).schemas is empty; list every version of the models, oldest first")]
        }
        var problems: [(String?, String)] = []
        for version in versions where !version.schema.problems.isEmpty {
            problems.append((version.name, "the models of \(version.name) cannot be stored:\n" + version.schema.problems.map { "- \($0)" }.joined(separator: "\n")))
        }
        for (index, version) in versions.enumerated() {
            for earlier in versions[..<index] where earlier.schema.fingerprint == version.schema.fingerprint {
                problems.append((version.name,
                    "\(plan) declares \(earlier.name) and \(version.name) with identical structure, so a store cannot tell them apart (SwiftData crashes with \"Duplicate version checksums detected\"). Remove one of them: adding a property with a default value, or changing a default or a delete rule, needs no new version. If only the meaning of stored data changed, set a hashModifier on the affected property"))
            }
            if index > 0, !(versions[index - 1].schema.version < version.schema.version) {
                problems.append((version.name,
                    "\(plan).schemas must go from oldest to newest, but \(version.name) follows \(versions[index - 1].name); order them by versionIdentifier"))
            }
        }
        for stage in plan.stages {
            let (from, to) = stage.versions
            guard let fromIndex = versions.firstIndex(where: { $0.type == from }) else {
                problems.append(("\(from)", "a stage of \(plan) migrates from \(from), which is not in \(plan).schemas; add it there"))
                continue
            }
            guard let toIndex = versions.firstIndex(where: { $0.type == to }) else {
                problems.append(("\(to)", "a stage of \(plan) migrates to \(to), which is not in \(plan).schemas; add it there"))
                continue
            }
            if toIndex <= fromIndex {
                problems.append((versions[fromIndex].name,
                    "a stage of \(plan) goes backwards, from \(versions[fromIndex].name) to \(versions[toIndex].name); stages go from a version to the next one"))
            } else if toIndex != fromIndex + 1 {
                problems.append((versions[fromIndex].name,
                    "a stage of \(plan) goes from \(versions[fromIndex].name) to \(versions[toIndex].name), skipping \(versions[fromIndex + 1].name); declare one stage per pair of consecutive versions"))
            }
        }
        return problems
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
