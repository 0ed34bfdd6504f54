#ifndef OSD_SQLITE_DEFENSIVE_H
#define OSD_SQLITE_DEFENSIVE_H

typedef struct sqlite3 sqlite3;

/// Turns on SQLite's defensive settings for a connection, as `sqlite3_db_config` (a variadic
/// function Swift cannot call) sets them: SQLITE_DBCONFIG_DEFENSIVE on (no writes to the
/// schema table or shadow tables, no `PRAGMA writable_schema`), SQLITE_DBCONFIG_TRUSTED_SCHEMA
/// off (the schema cannot call functions that are not innocuous) and extension loading off.
/// Returns SQLITE_OK, or the first error code.
int osd_sqlite_make_defensive(sqlite3 *db);

#endif
