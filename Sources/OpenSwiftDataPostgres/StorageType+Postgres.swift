import OpenSwiftData

extension StorageType {
    /// The PostgreSQL column type that holds it, chosen so that a value never changes on a
    /// round trip: a `Date` is its seconds since 2001 as `double precision` (a `timestamptz`
    /// keeps only microseconds), an unsigned 64-bit integer keeps its bit pattern in `bigint`.
    /// A `String` column is also given byte order (`COLLATE "C"`, as SQLite compares) by
    /// ``PostgresTables``.
    var postgresType: String {
        switch self {
        case .bool: "boolean"
        case .int8, .int16, .uint8: "smallint"
        case .int32, .uint16: "integer"
        case .int, .int64, .uint, .uint32, .uint64: "bigint"
        case .double, .date: "double precision"
        case .float: "real"
        case .decimal: "numeric"
        case .string: "text"
        case .url: "text"
        case .uuid: "uuid"
        case .data: "bytea"
        case .codable: "jsonb"
        }
    }
}
