import Foundation

extension AppleStoreOwnModel {
    /// The rows the new store gets: for each entity, each row's key with the values of its
    /// table's columns and of its attributes kept outside it, and the join tables' links.
    struct Rows {
        var table: [String: [Int64: [StoredValue]]] = [:]
        var external: [String: [Int64: [StoredValue]]] = [:]
        var links: [String: Set<[Int64]>] = [:]
    }

    /// Writes the new store at `url` from the Apple store's rows, each under its Apple key (so
    /// the key columns carry over as they are), then reads it back and compares.
    func write(to url: URL, tables: AppleStoreTables, importing: AppleStoreImport) throws -> AppleStoreImport.Report {
        let rows = try self.rows(tables: tables)
        try SchemaStoreWriter.write(at: url, schema: schema) { writer in
            for entity in entities {
                let columns = entity.attributes.filter { !$0.isExternal }.map(\.name) + entity.relationships.filter { $0.column != nil && !$0.apple.isToMany }.map(\.name)
                let external = entity.attributes.filter(\.isExternal)
                for (key, values) in rows.table[entity.entity.name] ?? [:] {
                    try writer.insert(entity: entity.entity.name, key: key, columns: columns, values: values)
                    for (attribute, value) in zip(external, rows.external[entity.entity.name]?[key] ?? []) {
                        try writer.insertExternal(entity: entity.entity.name, attribute: attribute.name, key: key, value: value)
                    }
                }
            }
            for (table, links) in rows.links {
                for link in links { try writer.link(joinTable: table, source: link[0], target: link[1]) }
            }
        }
        let compared = try check(url, against: rows)
        return AppleStoreImport.Report(
            plan: plan, rows: Dictionary(entities.map { ($0.entity.name, $0.apple.rows) }, uniquingKeysWith: +),
            valuesCompared: compared.values, linksCompared: compared.links)
    }

    /// Reads and converts every row of the Apple store, checking each link names a row it has.
    private func rows(tables: AppleStoreTables) throws -> Rows {
        var rows = Rows()
        var keys: [String: Set<Int64>] = [:]
        func exists(_ key: Int64, in table: String) throws -> Bool {
            if keys[table] == nil { keys[table] = try tables.keys(in: table) }
            return keys[table]!.contains(key)
        }
        let appleTables = Dictionary(entities.map { ($0.entity.name, $0.apple.table) }, uniquingKeysWith: { first, _ in first })
        for entity in entities {
            let toOnes = entity.relationships.filter { $0.column != nil && !$0.apple.isToMany }
            let name = entity.entity.name
            try tables.forEachRow(of: entity.apple, columns: entity.attributes.map(\.column) + toOnes.map { $0.column! }) { key, values in
                var inTable: [StoredValue] = []
                var external: [StoredValue] = []
                for (attribute, stored) in zip(entity.attributes, values) {
                    let value = try AppleStoreImportFailure.placed(
                        entity: name, property: attribute.name, row: key, column: attribute.column, table: entity.apple.table
                    ) {
                        try AppleImportedValue.value(
                            stored, codec: attribute.codec, valueType: attribute.valueType, isExternal: attribute.isExternal, type: attribute.type, tables: tables)
                    }
                    let converted = try value.map(attribute.codec.encode) ?? .null
                    if attribute.isExternal { external.append(converted) } else { inTable.append(converted) }
                }
                for (relationship, stored) in zip(toOnes, values.dropFirst(entity.attributes.count)) {
                    if case .integer(let member) = stored, let table = appleTables[relationship.apple.destination], try !exists(member, in: table) {
                        throw AppleStoreImportFailure.dangling(name, relationship.name, at: "\(relationship.column ?? "") of row \(key)", names: member, of: table)
                    }
                    inTable.append(stored)
                }
                rows.table[name, default: [:]][key] = inTable
                if !external.isEmpty { rows.external[name, default: [:]][key] = external }
            }
            for relationship in entity.relationships {
                guard case .joinTable(let table, let ownColumn, _) = relationship.storage, let inverse = relationship.apple.inverse,
                      let join = tables.joinTable(relationship: relationship.name, inverse: inverse)
                else { continue }
                let destinationTable = appleTables[relationship.apple.destination] ?? ""
                for pair in try tables.pairs(inJoinTable: join.table, ownerColumn: join.ownerColumn, memberColumn: join.memberColumn) {
                    guard try exists(pair.owner, in: entity.apple.table) else {
                        throw AppleStoreImportFailure.dangling(name, relationship.name, at: "\(join.table).\(join.ownerColumn)", names: pair.owner, of: entity.apple.table)
                    }
                    guard try exists(pair.member, in: destinationTable) else {
                        throw AppleStoreImportFailure.dangling(name, relationship.name, at: "\(join.table).\(join.memberColumn)", names: pair.member, of: destinationTable)
                    }
                    rows.links[table, default: []].insert(ownColumn == "source" ? [pair.owner, pair.member] : [pair.member, pair.owner])
                }
            }
        }
        return rows
    }

    /// Reads the new store back and compares it with what was written: every row of each
    /// entity, every value and every link.
    private func check(_ url: URL, against rows: Rows) throws -> (values: Int, links: Int) {
        var values = 0
        var links = 0
        for entity in entities {
            let name = entity.entity.name
            let expected = rows.table[name] ?? [:]
            let attributes = entity.attributes.filter { !$0.isExternal }.map(\.name)
            let wanted = [TableLayout.primaryKeyColumn] + attributes
                + entity.relationships.filter { $0.column != nil && !$0.apple.isToMany }.map(\.name)
            var positions: [Int] = []
            var entityPosition: Int?
            var found = 0
            try StoreFileReader.forEachRow(url, entity: name, columns: { names in
                positions = wanted.map { names.firstIndex(of: $0) ?? -1 }
                entityPosition = names.firstIndex(of: TableLayout.entityColumn)
            }) { row in
                if let entityPosition, row[entityPosition] != .text(name) { return }
                guard case .integer(let key) = row[positions[0]], let written = expected[key] else {
                    throw AppleStoreImportFailure.difference("the new store holds a \(name) row the Apple store does not have")
                }
                let read = positions.dropFirst().map { $0 >= 0 ? row[$0] : .null }
                guard read == written else {
                    throw AppleStoreImportFailure.difference("\(name) row \(key) reads back other than it was written")
                }
                found += 1
                values += attributes.count
                links += read.dropFirst(attributes.count).filter { $0 != .null }.count
            }
            guard found == expected.count else {
                throw AppleStoreImportFailure.difference("the new store holds \(found) \(name) rows where the Apple store has \(expected.count)")
            }
            for (index, attribute) in entity.attributes.filter(\.isExternal).enumerated() {
                try SchemaStoreWriter.forEachExternalValue(inStoreAt: url, entity: name, attribute: attribute.name) { key, value in
                    guard rows.external[name]?[key]?[index] == value else {
                        throw AppleStoreImportFailure.difference("\(name).\(attribute.name) of row \(key) reads back other than it was written")
                    }
                    values += 1
                }
            }
        }
        for (table, written) in rows.links {
            var read: Set<[Int64]> = []
            try SchemaStoreWriter.forEachLink(inStoreAt: url, joinTable: table) { read.insert([$0, $1]) }
            guard read == written else { throw AppleStoreImportFailure.difference("the join table \(table) holds \(read.count) links where \(written.count) were written") }
            links += read.count
        }
        return (values, links)
    }
}
