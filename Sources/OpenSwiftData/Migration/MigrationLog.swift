import Logging

/// Where migrations report what they do: the stages run, the SQL executed, rows touched and
/// time taken at `info` level, and forgiven irregularities at `warning` level. Bootstrap
/// swift-log's `LoggingSystem` to route it; by default it prints to standard error.
let migrationLog = Logger(label: "OpenSwiftData.migration")
