import Foundation

extension AppleStoreImport {
    /// What an import of an Apple store would do (a dry run): for each of the models' entities
    /// where its rows and each property's values come from, what of the Apple store is left
    /// behind, and what stops the import.
    public struct Plan: CustomStringConvertible, Sendable {
        /// One entity of the app's models.
        public struct Entity: Sendable, Equatable {
            public let name: String
            /// The rows the Apple store holds of it.
            public let rows: Int
            /// The attributes taken from the Apple store: `name ← COLUMN, Apple type → Swift type`.
            public let copied: [String]
            /// The attributes the Apple store has no values for, which get their initial value
            /// or `nil`.
            public let filled: [String]
            /// The relationships and where their links come from.
            public let relationships: [String]
            /// Anything else to say of it.
            public let note: String?
        }

        /// Something of the Apple store the import would not bring over.
        public struct Loss: Sendable, Equatable {
            public let entity: String
            /// The property; `nil` for the entity's rows.
            public let property: String?
            /// What would be lost, and why.
            public let what: String
            /// Whether the caller accepted dropping it; when not, it is among the refusals.
            public let isAccepted: Bool
        }

        /// The Apple store.
        public let store: URL
        /// The model versions the Apple store records.
        public let versionIdentifiers: [String]
        public let entities: [Entity]
        public let losses: [Loss]
        /// What stops the import, each naming entity and property and saying how to go on;
        /// empty when the import can run.
        public let refusals: [String]
        /// The Apple store's persistent history, which stays behind: the new store's history
        /// begins with the import's save, by the author `OpenSwiftData.AppleStoreImport` (with
        /// the app's models), or empty (with the store's own model).
        public let historyLeftBehind: AppleStoreInspection.History?
        /// Whether the import saves through the app's models, recording its save in the new
        /// store's history.
        let savesThroughModels: Bool

        /// Whether the import can run.
        public var canImport: Bool { refusals.isEmpty }

        public var description: String {
            var lines = ["Import of \(store.path) (model versions \(versionIdentifiers.isEmpty ? "not recorded" : versionIdentifiers.joined(separator: ", ")))"]
            for entity in entities {
                lines.append("\n\(entity.name): \(entity.rows) row\(entity.rows == 1 ? "" : "s")\(entity.note.map { ", \($0)" } ?? "")")
                lines += entity.copied.map { "  \($0)" }
                lines += entity.filled.map { "  \($0)" }
                lines += entity.relationships.map { "  \($0)" }
            }
            let dropped = losses.filter(\.isAccepted)
            if !dropped.isEmpty {
                lines.append("\nLeft behind, as accepted:")
                lines += dropped.map { "  \($0.entity)\($0.property.map { ".\($0)" } ?? ""): \($0.what)" }
            }
            if let history = historyLeftBehind {
                let start = savesThroughModels ? "begins with the import's save, by \(AppleStoreImportRun.author)" : "starts empty"
                lines.append("\nThe Apple store's persistent history (\(history.transactions) transaction(s), \(history.changes) change(s)) stays behind; the new store's \(start).")
            }
            if refusals.isEmpty {
                lines.append("\nThe import can run: nothing else of the Apple store is left behind.")
            } else {
                lines.append("\nRefused (nothing would be written):")
                lines += refusals.map { "  \($0)" }
            }
            return lines.joined(separator: "\n")
        }
    }
}

/// Collects a plan's entities, losses and refusals as the mapping is worked out.
struct PlanBuilder {
    let importing: AppleStoreImport

    init(importing: AppleStoreImport) {
        self.importing = importing
    }

    var entities: [AppleStoreImport.Plan.Entity] = []
    var losses: [AppleStoreImport.Plan.Loss] = []
    var refusals: [String] = []
    /// The Apple store's to-many relationships no property of the models takes, by
    /// `Entity.relationship`.
    private var unmappedToMany: [String: AppleStoreInspection.ModelRelationship] = [:]

    /// Whether the caller accepts dropping `property` of `entity` (or, for `nil`, its rows).
    func accepts(entity: String, property: String?) -> Bool {
        importing.dropsEverythingUnmapped || importing.dropping.contains(entity)
            || property.map { importing.dropping.contains("\(entity).\($0)") } ?? false
    }

    /// Records that something of the Apple store is not brought over: a loss the caller
    /// accepted, or a refusal.
    mutating func leaveBehind(entity: String, property: String?, what: String) {
        let isAccepted = accepts(entity: entity, property: property)
        losses.append(.init(entity: entity, property: property, what: what, isAccepted: isAccepted))
        guard !isAccepted else { return }
        let name = property.map { "\(entity).\($0)" } ?? entity
        refusals.append("\(name): \(what); declare it in the models, or accept dropping it (\"\(name)\")")
    }

    /// Notes the attributes and to-one relationships of `appleEntity` that no property of the
    /// models takes and that hold values in its rows.
    mutating func noteLeftBehind(
        apple: AppleStoreInspection.Entity, appleEntity: AppleStoreInspection.ModelEntity, used: Set<String>, tables: AppleStoreTables
    ) throws {
        for attribute in appleEntity.attributes where !used.contains(attribute.name) {
            guard let column = tables.column(of: attribute.name, in: apple) else { continue }
            let values = try tables.count(of: apple, column: column, holdingValue: true)
            guard values > 0 else { continue }
            leaveBehind(entity: apple.name, property: attribute.name, what: "\(values) value\(values == 1 ? "" : "s") (\(attribute.type), column \(column)) of an attribute the models do not declare")
        }
        for relationship in appleEntity.relationships where !used.contains(relationship.name) && relationship.isToMany {
            unmappedToMany["\(apple.name).\(relationship.name)"] = relationship
        }
        for relationship in appleEntity.relationships where !used.contains(relationship.name) && !relationship.isToMany {
            guard let column = tables.column(of: relationship.name, in: apple) else { continue }
            let links = try tables.count(of: apple, column: column, holdingValue: true)
            guard links > 0 else { continue }
            leaveBehind(entity: apple.name, property: relationship.name, what: "\(links) link\(links == 1 ? "" : "s") to \(relationship.destination) of a relationship the models do not declare")
        }
    }

    /// Notes the links of many-to-many relationships neither side of which the models declare
    /// (one side declared keeps every link): the rows of their join tables.
    mutating func noteUnmappedJoinTables(tables: AppleStoreTables) {
        for (place, relationship) in unmappedToMany.sorted(by: { $0.key < $1.key }) {
            guard let inverse = relationship.inverse, let other = unmappedToMany["\(relationship.destination).\(inverse)"], other.isToMany,
                  place < "\(relationship.destination).\(inverse)",
                  let join = tables.joinTable(relationship: relationship.name, inverse: inverse),
                  let links = tables.inspection.joinTables.first(where: { $0.name == join.table })?.rows, links > 0
            else { continue }
            let entity = String(place.prefix { $0 != "." })
            leaveBehind(entity: entity, property: relationship.name, what: "\(links) link\(links == 1 ? "" : "s") to \(relationship.destination) (join table \(join.table)) of a many-to-many relationship the models declare on neither side")
        }
    }

    /// Refuses a uniqueness constraint of the models that rows of the Apple store break: the
    /// new store would merge them.
    mutating func checkUniqueness(
        _ entity: Schema.Entity, apple: AppleStoreInspection.Entity, attributes: [AppleStoreImportMapping.Attribute],
        entities: [String: AppleStoreInspection.Entity], tables: AppleStoreTables
    ) throws {
        // A constraint is checked once, on the entity that declares it, over the rows of its
        // whole hierarchy below.
        for constraint in entity.uniquenessConstraints {
            let columns = constraint.compactMap { name in attributes.first { $0.name == name }?.source?.column }
            guard columns.count == constraint.count else { continue }
            let numbers = entity.selfAndDescendants.compactMap { entities[$0.name]?.number }
            for repeated in try tables.repeatedValues(in: apple.table, entities: numbers, columns: columns) {
                let values = repeated.values.map(Self.describe).joined(separator: ", ")
                refusals.append("\(entity.name): \(repeated.rows) rows of the Apple store hold \(values) for \(constraint.joined(separator: ", ")), which the models declare unique; the new store would merge them into one: make them differ in the Apple version first, or remove the constraint")
            }
        }
    }

    static func describe(_ value: StoredValue) -> String {
        switch value {
        case .null: "nil"
        case .integer(let integer): "\(integer)"
        case .real(let real): "\(real)"
        case .text(let text): "\"\(text)\""
        case .blob(let data): "\(data.count) bytes"
        }
    }

    func plan(store: URL, inspection: AppleStoreInspection) -> AppleStoreImport.Plan {
        AppleStoreImport.Plan(
            store: store, versionIdentifiers: inspection.versionIdentifiers, entities: entities, losses: losses, refusals: refusals,
            historyLeftBehind: inspection.history, savesThroughModels: importing.schema != nil)
    }
}
