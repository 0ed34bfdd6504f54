import Logging

/// Where migrations report what they do: the stages run, rows touched and time taken at
/// `debug` level, the SQL executed at `trace` level, so an app that never configured logging prints nothing for a
/// migration that went as planned; forgiven irregularities and the stored values a migration
/// drops at `warning` level. Bootstrap swift-log's `LoggingSystem` to route it (by default
/// warnings go to standard error), and lower the level of `OpenSwiftData.migration` to `debug`
/// to see every step. Each migration is also recorded in the store's `_osd_migrations` table.
let migrationLog = Logger(label: "OpenSwiftData.migration")
