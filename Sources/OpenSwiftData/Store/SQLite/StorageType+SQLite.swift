extension StorageType {
    /// The SQLite column type that holds it.
    var sqlType: String {
        switch self {
        case .bool, .int, .int8, .int16, .int32, .int64, .uint, .uint8, .uint16, .uint32, .uint64: "INTEGER"
        case .double, .float, .date: "REAL"
        case .decimal, .string, .url, .codable: "TEXT"
        case .uuid, .data: "BLOB"
        }
    }
}
