import Foundation

/// What ``MigrationTester`` asks when it cannot invent a value: the attribute, its type and
/// the row being made.
public struct SampleValueRequest: Sendable, CustomStringConvertible {
    /// The entity (model class name).
    public let entity: String
    /// The attribute's name.
    public let attribute: String
    /// The attribute's type, without `Optional`: return a value of exactly this type.
    public let valueType: any Any.Type
    /// The row being made, from 0; values of a unique attribute must differ between rows.
    public let row: Int

    public var description: String { "\(entity).\(attribute) (\(valueType)) of row \(row)" }
}

/// Fills a store with generated rows of one version's models: every attribute given a value
/// derived from its row (so unique attributes differ), optionals left `nil` on odd rows, and
/// relationships linked both ways. Values of types it cannot invent come from `ask`.
struct SampleStoreWriter {
    let schema: Schema
    let rowsPerEntity: Int
    let ask: ((SampleValueRequest) -> Any?)?

    /// Inserts the rows into `context` and saves.
    func fill(_ context: ModelContext) throws {
        var models: [String: [any PersistentModel]] = [:]
        for entity in schema.entities {
            guard let layout = schema.layouts[entity.name] else { continue }
            // The classes of a hierarchy share a table and its unique values: each numbers its
            // rows after the classes before it.
            let first = (entity.rootEntity.selfAndDescendants.firstIndex { $0 === entity } ?? 0) * rowsPerEntity
            models[entity.name] = try (0..<rowsPerEntity).map { row in
                var values = ModelValues(layout.valueSlots)
                for (index, property) in layout.properties.enumerated() where !property.isRelationship {
                    values[index] = try value(of: property, entity: entity.name, row: first + row)
                }
                let state = layout.loadedStateType.init(layout: layout, values: values)
                let model = state.makeModel()
                context.insert(model)
                return model
            }
        }
        for entity in schema.entities {
            guard let layout = schema.layouts[entity.name], let rows = models[entity.name] else { continue }
            for relationship in entity.relationshipsInOrder where links(relationship, of: entity) {
                guard let index = layout.properties.firstIndex(where: { $0.name == relationship.name }),
                      let destination = layout.properties[index].destination,
                      let targets = models[relationship.destination], !targets.isEmpty
                else { continue }
                for (row, model) in rows.enumerated() {
                    let first = targets[row % targets.count]
                    let value: Any = relationship.isToOne
                        ? first
                        : RelatedModels.toManyValue(
                            targets.count > 1 ? [first, targets[(row + 1) % targets.count]] : [first], of: destination)
                    model.modelState?.setRelationship(value, at: index, owner: model)
                }
            }
        }
        do {
            try context.save()
        } catch {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "the generated rows of \(schema.version) could not be saved (\(error)); a unique constraint over attributes with few values (a Bool, a small enum) cannot hold \(rowsPerEntity) rows: use fewer rows, or makeStore(at:url:fill:)")
        }
    }

    /// Whether the rows are linked from this side: a to-one side links (its inverse follows);
    /// a to-many side only when its inverse is not to-one (a many-to-many, or one-way). Of two
    /// to-one sides, the one of the entity first by name, then the property first by name.
    private func links(_ relationship: Schema.Relationship, of entity: Schema.Entity) -> Bool {
        guard let inverseName = relationship.inverseName,
              let inverse = schema.entitiesByName[relationship.destination]?.relationshipsByName[inverseName]
        else { return true }
        if relationship.isToOne != inverse.isToOne { return relationship.isToOne }
        return (entity.name, relationship.name) <= (relationship.destination, inverseName)
    }

    private func value(of property: ModelLayout.Property, entity: String, row: Int) throws -> Any {
        var type = property.valueType
        if let optional = type as? any OptionalProtocol.Type {
            if row % 2 == 1 { return optional.noneValue }
            type = optional.wrappedType
        }
        if let value = Self.invent(type, name: property.name, row: row) { return value }
        let request = SampleValueRequest(entity: entity, attribute: property.name, valueType: type, row: row)
        guard let value = ask?(request) else {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "no sample value for \(request): pass sampleValue: { request in ... } returning a \(type) for \(entity).\(property.name)")
        }
        guard Swift.type(of: value) == type else {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "the sample value for \(request) is a \(Swift.type(of: value)), not a \(type)")
        }
        return value
    }

    /// A value of `type` made from `row` (distinct rows, distinct values where the type has
    /// enough of them); `nil` for a type it cannot make.
    static func invent(_ type: Any.Type, name: String, row: Int) -> Any? {
        switch type {
        case is String.Type: return "\(name) \(row) é"
        case is Int.Type: return row + 1
        case is Int64.Type: return Int64(row + 1)
        case is Int32.Type: return Int32(truncatingIfNeeded: row + 1)
        case is Int16.Type: return Int16(truncatingIfNeeded: row + 1)
        case is Int8.Type: return Int8(truncatingIfNeeded: row + 1)
        case is UInt.Type: return UInt(row + 1)
        case is UInt64.Type: return UInt64(row + 1)
        case is UInt32.Type: return UInt32(truncatingIfNeeded: row + 1)
        case is UInt16.Type: return UInt16(truncatingIfNeeded: row + 1)
        case is UInt8.Type: return UInt8(truncatingIfNeeded: row + 1)
        case is Double.Type: return Double(row) + 0.5
        case is Float.Type: return Float(row) + 0.5
        case is Bool.Type: return row % 2 == 0
        case is Date.Type: return Date(timeIntervalSinceReferenceDate: Double(row) * 86_400 + 0.25)
        case is Data.Type: return Data("\(name) \(row)".utf8)
        case is URL.Type: return URL(string: "https://example.com/\(name)/\(row)")!
        case is Decimal.Type: return Decimal(row) + Decimal(string: "0.25")!
        case is UUID.Type:
            var bytes = [UInt8](repeating: 0, count: 16)
            withUnsafeBytes(of: UInt64(row + 1).bigEndian) { bytes.replaceSubrange(8..<16, with: $0) }
            bytes[6] = 0x40
            bytes[8] |= 0x80
            return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        default: break
        }
        if let cases = type as? any CaseIterable.Type {
            func everyCase<C: CaseIterable>(_: C.Type) -> [Any] { C.allCases.map { $0 } }
            let all = everyCase(cases)
            return all.isEmpty ? nil : all[row % all.count]
        }
        // Arrays and dictionaries of simple values, through their JSON form.
        if let decodable = type as? any Decodable.Type {
            for json in ["[\"\(name) \(row)\", \"\(row)\"]", "[\(row), \(row + 1)]", "[\(row).5]", "[true, false]", "{\"\(name)\": \"\(row)\"}", "{\"\(name)\": \(row)}"] {
                if let value = try? JSONDecoder().decode(decodable, from: Data(json.utf8)) { return value }
            }
        }
        return nil
    }
}
