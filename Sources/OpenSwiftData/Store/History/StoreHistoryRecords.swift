import Foundation
import Synchronization

// What a store's persistent history holds, whatever database keeps it: a save's changes, the
// runs they are recorded as, and the transactions and summaries read back.
extension StoreHistory {
    /// Whether saves record history, in every store of the process (see
    /// `ModelContainer.recordsPersistentHistory`).
    package static let isRecording = Atomic<Bool>(true)

    package enum Kind: Int64 {
        case insert = 0, update = 1, delete = 2
    }

    /// One change of a save, as recorded.
    package struct Change {
        package var kind: Kind
        package var entity: String
        package var row: Int64
        /// An update's changed properties.
        package var updated: [String] = []
        /// A delete's preserved attribute values, as their columns store them.
        package var tombstone: [(attribute: String, value: StoredValue)] = []

        package init(kind: Kind, entity: String, row: Int64, updated: [String] = [], tombstone: [(attribute: String, value: StoredValue)] = []) {
            self.kind = kind
            self.entity = entity
            self.row = row
            self.updated = updated
            self.tombstone = tombstone
        }
    }

    /// Consecutive changes of one kind to consecutive rows of one entity (with the same changed
    /// properties), recorded as one row: a save of 100,000 new rows is one run.
    package struct Run {
        /// The ordinal of its first change in the transaction.
        package let ordinal: Int64
        package let kind: Kind
        package let entity: String
        package let firstRow: Int64
        package let count: Int64
        /// An update's changed property names, comma separated.
        package let updated: String?

        package init(ordinal: Int64, kind: Kind, entity: String, firstRow: Int64, count: Int64, updated: String?) {
            self.ordinal = ordinal
            self.kind = kind
            self.entity = entity
            self.firstRow = firstRow
            self.count = count
            self.updated = updated
        }
    }

    /// The runs a save's changes are recorded as, in order.
    package static func runs(of changes: [Change]) -> [Run] {
        var runs: [Run] = []
        var start = 0
        while start < changes.count {
            let first = changes[start]
            var end = start + 1
            while end < changes.count, changes[end].kind == first.kind, changes[end].entity == first.entity,
                  changes[end].row == changes[end - 1].row + 1, changes[end].updated == first.updated {
                end += 1
            }
            runs.append(Run(
                ordinal: Int64(start), kind: first.kind, entity: first.entity, firstRow: first.row, count: Int64(end - start),
                updated: first.updated.isEmpty ? nil : first.updated.joined(separator: ",")))
            start = end
        }
        return runs
    }

    /// The preserved values of a save's deletes, by the ordinal of their change.
    package static func tombstoneValues(of changes: [Change]) -> [(ordinal: Int64, attribute: String, value: StoredValue)] {
        changes.enumerated().flatMap { ordinal, change in
            change.tombstone.map { (Int64(ordinal), $0.attribute, $0.value) }
        }
    }

    /// What a save records: its deletes (with the preserved values of the deleted models), its
    /// updates (with the properties they changed) and its inserts (with the keys they got).
    /// Batch deletes' rows are added by the store, which learns them as it deletes.
    /// An insert that took over a stored row (`upserts`, by position) is an update of the
    /// properties it changed there.
    package static func changes(
        of saved: StoreChanges, insertedRowIDs: [Int64], upserts: [Int: [String]], tables: [String: TableLayout]
    ) throws -> [Change] {
        var changes: [Change] = []
        for state in saved.deleted {
            var change = Change(kind: .delete, entity: state.layout.entityName, row: state.rowID ?? 0)
            if let table = tables[state.layout.entityName] {
                for column in table.columns where state.hasValue(at: column.propertyIndex) {
                    guard let attribute = state.layout.properties[column.propertyIndex].marker as? Schema.Attribute,
                          attribute.options.contains(.preserveValueOnDeletion)
                    else { continue }
                    change.tombstone.append((column.name, try table.storedValue(of: state, column)))
                }
            }
            changes.append(change)
        }
        for state in saved.updated {
            changes.append(Change(
                kind: .update, entity: state.layout.entityName, row: state.rowID ?? 0,
                updated: state.layout.properties.indices.filter(state.changedProperties.contains).map { state.layout.properties[$0].name }))
        }
        for (position, (state, rowID)) in zip(saved.inserted, insertedRowIDs).enumerated() {
            if let updated = upserts[position] {
                // Nothing changed is nothing to record.
                if !updated.isEmpty { changes.append(Change(kind: .update, entity: state.layout.entityName, row: rowID, updated: updated)) }
            } else {
                changes.append(Change(kind: .insert, entity: state.layout.entityName, row: rowID))
            }
        }
        return changes
    }

    /// The deletes a batch delete of a save records: one per row it removed, but for the rows
    /// the save also deletes model by model (a context marks the models it holds of a batch's
    /// rows deleted), which ``changes(of:insertedRowIDs:tables:)`` records with their tombstones.
    package static func changes(ofBatchDelete rows: [Int64], entity: String, in saved: StoreChanges) -> [Change] {
        let individually = Set(saved.deleted.lazy.filter { $0.layout.entityName == entity }.compactMap(\.rowID))
        return rows.filter { !individually.contains($0) }.map { Change(kind: .delete, entity: entity, row: $0) }
    }

    /// A recorded transaction and its changes, as read back.
    package struct Transaction {
        package let id: Int64
        let timestamp: Date
        let author: String?
        let bundle: String
        let process: String
        var changes: [(id: Int64, change: Change)] = []

        package init(id: Int64, timestamp: Date, author: String?, bundle: String, process: String) {
            self.id = id
            self.timestamp = timestamp
            self.author = author
            self.bundle = bundle
            self.process = process
        }

        /// Adds the changes of a recorded run, with the preserved values of its deletes (by
        /// change identifier).
        mutating func append(_ run: Run, tombstones: [Int64: [(attribute: String, value: StoredValue)]]) {
            let updated = run.updated.map { $0.split(separator: ",").map(String.init) } ?? []
            for offset in 0..<run.count {
                let id = changeIdentifier(transaction: self.id, ordinal: run.ordinal + offset)
                changes.append((id, Change(
                    kind: run.kind, entity: run.entity, row: run.firstRow + offset, updated: updated, tombstone: tombstones[id] ?? [])))
            }
        }
    }

    /// The transactions read back with their changes: each run (read in transaction and
    /// ordinal order) expanded into its changes, each delete with the values its tombstone rows
    /// preserved. Every store reads the three tables with its own statements and hands the
    /// rows here.
    package static func assemble(
        _ transactions: [Transaction], runs: [(transaction: Int64, run: Run)],
        tombstones: [(transaction: Int64, ordinal: Int64, attribute: String, value: StoredValue)]
    ) -> [Transaction] {
        var assembled = transactions
        let position = Dictionary(uniqueKeysWithValues: transactions.enumerated().map { ($1.id, $0) })
        var preserved: [Int64: [(attribute: String, value: StoredValue)]] = [:]
        for row in tombstones {
            preserved[changeIdentifier(transaction: row.transaction, ordinal: row.ordinal), default: []].append((row.attribute, row.value))
        }
        for (transaction, run) in runs {
            guard let index = position[transaction] else { continue }
            assembled[index].append(run, tombstones: preserved)
        }
        return assembled
    }

    /// A transaction as an observer filters it: who saved, and which entities it changed.
    package struct Summary {
        package let id: Int64
        let author: String?
        package var entities: Set<String>

        package init(id: Int64, author: String?, entities: Set<String>) {
            self.id = id
            self.author = author
            self.entities = entities
        }
    }
}
