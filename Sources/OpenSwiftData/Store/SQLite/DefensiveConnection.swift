import GRDB
import SQLiteDefensive

extension SQLiteStore {
    /// `configuration` for a connection that a crafted file cannot turn against the library:
    /// SQLite's defensive mode, `trusted_schema` off (triggers, views and indices cannot call the
    /// library's SQL functions) and no extension loading. Every connection OpenSwiftData opens
    /// starts from it.
    static func defensive(_ configuration: Configuration = Configuration()) -> Configuration {
        var configuration = configuration
        configuration.prepareDatabase { db in
            let code = osd_sqlite_make_defensive(db.sqliteConnection)
            guard code == 0 else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "SQLite's defensive settings could not be turned on")
            }
        }
        return configuration
    }
}
