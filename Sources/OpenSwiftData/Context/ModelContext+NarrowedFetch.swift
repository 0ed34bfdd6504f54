import Foundation

// Fetches the store cannot answer exactly (a predicate or sort only Swift decides), answered
// from the rows its SQL narrows them to.
extension ModelContext {
    /// How many candidate rows are read, made models and decided at a time.
    static let candidateBatchSize = 500

    /// Whether `query`, answered in memory, can read only the store's candidates for it: the
    /// store narrowed its condition, and no unsaved change of an entity it reads takes part
    /// (the candidates are chosen by stored values).
    func readsCandidates<T>(_ query: FetchPlan, _ descriptor: FetchDescriptor<T>) -> FetchPlan.Narrowing? {
        guard query.answersInMemory, let narrowing = query.narrowing else { return nil }
        if descriptor.includePendingChanges, !entitiesWithPendingChanges(readBy: query).isEmpty { return nil }
        return narrowing
    }

    /// The stored models matching the descriptor, in its order, after its offset and limit: the
    /// store reads the candidate rows, in the descriptor's order when it can sort so, a batch at
    /// a time; `Predicate.evaluate` decides each model, and those it rejects are let go. With the
    /// order in SQL, reading stops once the page is full, so the work and memory follow the page
    /// and the candidates read, not the table.
    func fetchCandidates<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, _ query: FetchPlan, _ narrowing: FetchPlan.Narrowing
    ) throws -> [T] {
        let offset = descriptor.fetchOffset ?? 0
        let enough = narrowing.ordersInSQL ? descriptor.fetchLimit.map { offset + $0 } : nil
        if enough == 0 { return [] }
        var matches: [T] = []
        let selection = RowSelection(query.table, where: narrowing.candidates, orderBy: narrowing.ordersInSQL ? query.orderBy : nil)
        try forEachCandidate(of: query, selection, expecting: enough) { (model: T) in
            guard try descriptor.predicate?.evaluate(model) ?? true else { return (kept: false, more: true) }
            matches.append(model)
            return (kept: true, more: enough.map { matches.count < $0 } ?? true)
        }
        if !narrowing.ordersInSQL, !descriptor.sortBy.isEmpty {
            matches.sort(using: descriptor.sortBy)
        }
        let start = min(offset, matches.count)
        let end = descriptor.fetchLimit.map { min(start + $0, matches.count) } ?? matches.count
        return Array(matches[start..<end])
    }

    /// The number of stored models matching the predicate: the rows the store knows match are
    /// counted there; only the other candidates are made models for `Predicate.evaluate`, and
    /// let go after.
    func countCandidates<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, _ query: FetchPlan, _ narrowing: FetchPlan.Narrowing
    ) throws -> Int {
        var count = 0
        var undecided = narrowing.candidates
        if let certain = narrowing.certainMatches {
            let split = try query.store.count(query.table, where: narrowing.candidates, splitBy: certain)
            count = split.meeting
            undecided = split.others == 0 ? "FALSE" : SQLFragment.allOf([narrowing.candidates, SQLFragment.excluding(certain)])
        }
        if undecided != "FALSE" {
            try forEachCandidate(of: query, RowSelection(query.table, where: undecided), expecting: nil) { (model: T) in
                let matches = try descriptor.predicate?.evaluate(model) ?? true
                if matches { count += 1 }
                return (kept: false, more: true)
            }
        }
        let skipped = min(descriptor.fetchOffset ?? 0, count)
        return min(count - skipped, descriptor.fetchLimit ?? Int.max)
    }

    /// Calls `decide` with the context's model of each row of `selection`, in order, until it
    /// says no more are wanted; a model it does not keep, and that the context did not hold
    /// before, is let go after its batch.
    private func forEachCandidate<T: PersistentModel>(
        of query: FetchPlan, _ selection: RowSelection, expecting needed: Int?, _ decide: (T) throws -> (kept: Bool, more: Bool)
    ) throws {
        let key = query.table.registryKey
        try query.store.forEachRow(selection, batchesOf: Self.candidateBatchSize, expecting: needed) { batch in
            let new = Set(batch.lazy.map(\.rowID).filter { self.registered[key]?[$0] == nil })
            let models: [T] = try materializeRows(query) { row in
                for (rowID, values) in batch { try row(rowID, values) }
            }
            var more = true
            var letGo: [Int64] = []
            for (model, (rowID, _)) in zip(models, batch) {
                let kept: Bool
                if more {
                    (kept, more) = try decide(model)
                } else {
                    kept = false
                }
                if !kept, new.contains(rowID) { letGo.append(rowID) }
            }
            forgetUnchanged(entity: key, rowIDs: letGo)
            return more
        }
    }
}
