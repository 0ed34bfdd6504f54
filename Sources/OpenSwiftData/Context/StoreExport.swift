import Foundation

/// Rows of a store written out as JSON lines or CSV, one row in memory at a time, read without
/// writing to the store. `osd export` runs it.
public enum StoreExport {
    /// The formats rows are written in.
    public enum Format: String, Sendable, CaseIterable {
        /// One JSON object per line: each column by name (`_entity` names the entity).
        case json
        /// A header line of column names, then one line per row (RFC 4180 quoting).
        case csv
    }

    /// Writes the rows of `entity` (every entity when `nil`, JSON only) of the store at `url`.
    /// Integers and reals are written as numbers, text as strings, data as base64; dates are
    /// stored (and written) as seconds since 2001-01-01; decimals are written as their exact
    /// digits (`"12.5"`), in a string.
    ///
    /// - Parameters:
    ///   - url: the store.
    ///   - entity: the entity whose rows are written; `nil` for all.
    ///   - format: JSON lines or CSV.
    ///   - write: called with each line, newline included.
    /// - Returns: how many rows were written.
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` when the store cannot be read, has no
    ///   such entity, or CSV is asked for several entities; what `write` throws.
    @discardableResult
    public static func export(storeAt url: URL, entity: String?, format: Format, write: (String) throws -> Void) throws -> Int {
        try export(schema: try StoreFileReader.metadata(url).schema(), entity: entity, format: format, write: write) { name, columns, body in
            try StoreFileReader.forEachRow(url, entity: name, columns: columns, body)
        }
    }

    /// Reads each row of an entity of a store of any kind: calls `columns` with the column names
    /// once, then `body` with each row's values in that order (an entity of a hierarchy: its
    /// rows and its subentities', by key).
    package typealias RowSource = (_ entity: String, _ columns: ([String]) throws -> Void, _ body: ([StoredValue]) throws -> Void) throws -> Void

    /// Writes the rows of `entity` (every entity of `schema` when `nil`, JSON only) that
    /// `rows` reads, as ``export(storeAt:entity:format:write:)`` does for an SQLite store.
    @discardableResult
    package static func export(schema: Schema, entity: String?, format: Format, write: (String) throws -> Void, rows: RowSource) throws -> Int {
        // The row source's callbacks write; they run before `rows` returns.
        try withoutActuallyEscaping(write) { write in
            try export(schema: schema, entity: entity, format: format, writingWith: write, rows: rows)
        }
    }

    private static func export(
        schema: Schema, entity: String?, format: Format, writingWith write: @escaping (String) throws -> Void, rows: RowSource
    ) throws -> Int {
        try export(entities: entity.map { [$0] } ?? schema.entities.map(\.name), format: format, writingWith: write, rows: rows) { name in
            // A hierarchy's table holds every class's columns.
            let classes = schema.entitiesByName[name].map { $0.rootEntity.selfAndDescendants } ?? []
            return Set(classes.flatMap(\.attributesInOrder).filter { $0.storageType == .decimal }.map(\.name))
        }
    }

    /// Writes the rows `rows` reads of each of `entities`, the columns `decimals` names for an
    /// entity holding decimals as ``OrderedDecimalText``.
    private static func export(
        entities: [String], format: Format, writingWith write: @escaping (String) throws -> Void, rows: RowSource,
        decimals: @escaping (String) -> Set<String>
    ) throws -> Int {
        if format == .csv, entities.count != 1 {
            throw SwiftDataError.loadIssueModelContainer.explaining(
                "CSV holds one table: name the entity to export (one of \(entities.joined(separator: ", ")))")
        }
        var count = 0
        for name in entities {
            var columns: [String] = []
            var decimalColumns: [Int] = []
            try rows(name, { names in
                columns = names
                let decimals = decimals(name)
                decimalColumns = names.indices.filter { decimals.contains(names[$0]) }
                if format == .csv { try write(names.map(csvField).joined(separator: ",") + "\n") }
            }) { stored in
                count += 1
                var values = stored
                for index in decimalColumns {
                    if case .text(let text) = values[index], let decimal = OrderedDecimalText.decimal(from: text) {
                        values[index] = .text(decimal.description)
                    }
                }
                switch format {
                case .csv:
                    try write(values.map { csvField(text(of: $0)) }.joined(separator: ",") + "\n")
                case .json:
                    var line = "{\"_entity\":\(jsonString(name))"
                    for (column, value) in zip(columns, values) {
                        line += ",\(jsonString(column)):\(json(of: value))"
                    }
                    try write(line + "}\n")
                }
            }
        }
        return count
    }

    /// Writes the rows of `entity` (every entity when `nil`, JSON only) of a store Apple's
    /// SwiftData or Core Data wrote, read from a copy of it: `_pk` (its `Z_PK`), then each
    /// attribute of the store's model by name and each to-one relationship by name, holding the
    /// related row's `_pk`. Values are written as the store keeps them: dates as seconds since
    /// 2001-01-01, UUIDs and other data as base64, decimals as numbers, transformable values as
    /// the base64 of their bytes.
    ///
    /// - Throws: ``SwiftDataError/loadIssueModelContainer`` when the file is not such a store,
    ///   keeps no model, has no such entity, or CSV is asked for several entities; what `write`
    ///   throws.
    @discardableResult
    public static func export(appleStoreAt url: URL, entity: String?, format: Format, write: (String) throws -> Void) throws -> Int {
        try AppleStoreTables.read(url) { tables in
            guard let model = tables.inspection.model else {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "\(url.path) keeps no model it was written with (\(tables.inspection.modelProblem ?? "no Z_MODELCACHE")): its columns cannot be named")
            }
            let entities = tables.inspection.entities
            if let entity, !entities.contains(where: { $0.name == entity }) {
                throw SwiftDataError.loadIssueModelContainer.explaining(
                    "\(url.path) has no entity \(entity); it has \(entities.map(\.name).joined(separator: ", "))")
            }
            let rows: RowSource = { name, columns, body in
                guard let apple = entities.first(where: { $0.name == name }), let modelEntity = model.first(where: { $0.name == name }) else { return }
                let named = (modelEntity.attributes.map(\.name) + modelEntity.relationships.filter { !$0.isToMany }.map(\.name))
                    .compactMap { name in tables.column(of: name, in: apple).map { (name, $0) } }
                try columns(["_pk"] + named.map(\.0))
                try tables.forEachRow(of: apple, columns: named.map(\.1)) { key, values in
                    try body([.integer(key)] + values)
                }
            }
            return try withoutActuallyEscaping(write) { write in
                try export(entities: entity.map { [$0] } ?? entities.map(\.name), format: format, writingWith: write, rows: rows) { _ in [] }
            }
        }
    }

    private static func text(of value: StoredValue) -> String {
        switch value {
        case .null: ""
        case .integer(let int): String(int)
        case .real(let double): String(double)
        case .text(let string): string
        case .blob(let data): data.base64EncodedString()
        }
    }

    private static func json(of value: StoredValue) -> String {
        switch value {
        case .null: "null"
        case .integer(let int): String(int)
        case .real(let double): double.isFinite ? String(double) : "null"
        case .text(let string): jsonString(string)
        case .blob(let data): jsonString(data.base64EncodedString())
        }
    }

    private static func jsonString(_ string: String) -> String {
        var escaped = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20: escaped += String(format: "\\u%04x", scalar.value)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }

    private static func csvField(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
