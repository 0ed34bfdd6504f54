/// Follows each entity and attribute of a plan's newest version back, step by step (by name
/// or `originalName`), to the version a store was written by, and compares the values the store
/// held with those it holds after the migration: what ``MigrationTester`` checks.
struct ValueLineage {
    let versions: [PlanVersions.Version]
    /// The index of the version the store was written by.
    let from: Int
    let plan: any SchemaMigrationPlan.Type

    /// Values lost through the structure (failures), and values and rows the stages' code
    /// changed or deleted (reported), each naming the entity and attribute.
    func compare(_ before: StoredRows, _ after: StoredRows) -> (losses: [String], changesByStages: [String]) {
        var losses: [String] = []
        var changes: [String] = []
        let newest = versions[versions.count - 1]
        let custom = customStageOnPath
        let source = versions[from]
        for entity in newest.schema.entities {
            guard let stored = before.tables[entity.name], !stored.isEmpty,
                  let sourceEntity = source.schema.entitiesByName[entity.name]
            else { continue }
            let migrated = after.tables[entity.name] ?? [:]
            let missing = stored.keys.filter { migrated[$0] == nil }.count
            if let gap = versionsLacking(entity: entity.name) {
                if missing > 0 {
                    losses.append("\(entity.name): \(missing) of the \(stored.count) rows stored by \(source.name) are lost: \(gap.name) drops the entity and a later version declares it again. Keep the entity in \(gap.name), or carry its rows over in a custom stage")
                }
                continue
            }
            if missing > 0 {
                let message = "\(entity.name): \(missing) of \(stored.count) rows deleted"
                if custom { changes.append(message) } else { losses.append("\(message) by a lightweight migration") }
            }
            for attribute in entity.attributesInOrder {
                let trace = ancestor(of: attribute, in: entity.name)
                let oldName: String
                if let name = trace.name {
                    oldName = name
                } else if let gap = trace.droppedBy, let redeclared = trace.redeclaredAs,
                          sourceEntity.attributesByName[redeclared] != nil {
                    oldName = redeclared
                    let lost = countDiffering(stored, migrated, old: oldName, new: attribute.name)
                    if lost > 0 {
                        losses.append("\(entity.name).\(attribute.name): \(lost) value\(lost == 1 ? "" : "s") stored by \(source.name) \(lost == 1 ? "is" : "are") lost: \(gap.name) drops \(redeclared) and a later version declares it again. Keep the attribute in \(gap.name) (make it optional, or rename it with originalName), or carry its values over in a custom stage")
                    }
                    continue
                } else {
                    continue
                }
                let changed = countDiffering(stored, migrated, old: oldName, new: attribute.name)
                guard changed > 0 else { continue }
                let message = "\(entity.name).\(attribute.name): \(changed) of \(stored.count) stored values changed"
                if custom { changes.append(message) } else { losses.append("\(message) by a lightweight migration") }
            }
        }
        return (losses, changes)
    }

    /// Whether code of the plan's runs between the store's version and the newest.
    private var customStageOnPath: Bool {
        plan.stages.contains { stage in
            guard case .custom(let stageFrom, _, _, _) = stage,
                  let index = versions.firstIndex(where: { $0.type == stageFrom })
            else { return false }
            return index >= from && index < versions.count - 1
        }
    }

    /// The first version after the store's that lacks the entity, if one does.
    private func versionsLacking(entity name: String) -> PlanVersions.Version? {
        versions[from...].first { $0.schema.entitiesByName[name] == nil }
    }

    /// The name `attribute` of the newest version had in the store's version, following
    /// `originalName`s back; when the chain breaks, the version that lacks it and the name the
    /// next version declared it under.
    private func ancestor(of attribute: Schema.Attribute, in entity: String) -> (name: String?, droppedBy: PlanVersions.Version?, redeclaredAs: String?) {
        var current = attribute
        for index in stride(from: versions.count - 2, through: from, by: -1) {
            guard let older = versions[index].schema.entitiesByName[entity],
                  let previous = older.attribute(continuedBy: current)
            else { return (nil, versions[index], current.name) }
            current = previous
        }
        return (current.name, nil, nil)
    }

    /// How many rows held a value (not `NULL`) in `old` that the same row no longer holds in
    /// `new`; rows no longer there are counted apart.
    private func countDiffering(
        _ before: [Int64: [String: StoredValue]], _ after: [Int64: [String: StoredValue]], old: String, new: String
    ) -> Int {
        before.reduce(0) { count, entry in
            guard let value = entry.value[old], value != .null, let row = after[entry.key], let kept = row[new] else { return count }
            return kept == value ? count : count + 1
        }
    }
}
