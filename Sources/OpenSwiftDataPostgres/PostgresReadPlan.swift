import OpenSwiftData
import Synchronization

/// How the PostgreSQL store reads the rows of one table layout: the select list of the layout's
/// ``TableLayout/selectedColumns`` (qualified, quoted, `numeric` and `jsonb` read as text), and
/// the storage of each, which turns its cell into the value the layout's row decoder reads.
struct PostgresReadPlan {
    let selectList: String
    let storages: [StorageType]

    /// - Parameter currentNames: columns the layout reads under another name now (a custom
    ///   stage's old models, after the step renamed them), by the layout's name.
    init(_ table: TableLayout, in tables: [String: TableLayout], currentNames: [String: String] = [:]) {
        // A hierarchy's table holds every class's columns: look for a column's type among them.
        var storageByColumn: [String: StorageType] = [:]
        for other in tables.values where other.postgresName == table.postgresName {
            for column in other.columns { storageByColumn[column.name] = column.codec.storage }
        }
        for column in table.columns { storageByColumn[column.name] = column.codec.storage }
        storageByColumn[TableLayout.entityColumn] = .string
        // `_pk` and to-one keys are bigint.
        storages = table.selectedColumns.map { storageByColumn[$0] ?? .int64 }
        selectList = zip(table.selectedColumns, storages).map { name, storage in
            PostgresValues.selected("\(table.postgresName).\(PostgresNames.quoted(currentNames[name] ?? name))", for: storage)
        }.joined(separator: ", ")
    }
}

/// The read plans of a store's table layouts, made on first use. Each entry keeps its layout,
/// so no other layout can take its identifier while the plan is kept.
final class ReadPlans: Sendable {
    private let plans = Mutex<[ObjectIdentifier: (table: TableLayout, plan: PostgresReadPlan)]>([:])

    func plan(of table: TableLayout, in tables: [String: TableLayout], currentNames: [String: String] = [:]) -> PostgresReadPlan {
        let key = ObjectIdentifier(table)
        if let made = plans.withLock({ $0[key] }) { return made.plan }
        let plan = PostgresReadPlan(table, in: tables, currentNames: currentNames)
        return plans.withLock { plans in
            if let made = plans[key] { return made.plan }
            plans[key] = (table, plan)
            return plan
        }
    }
}
