/// The results of a batched fetch: a random-access collection that loads its elements a batch
/// at a time, when you first reach them.
///
/// Use it on the context's actor only. An element whose model was deleted from the store after
/// the fetch traps when reached.
///
/// A ``ResultsObserver``'s results hold their models already (they include unsaved ones).
public struct FetchResultsCollection<Element>: RandomAccessCollection {
    private let rowIDs: [Int64]
    private let batchSize: Int
    private let cache: BatchCache
    /// The elements, when the collection was made with them rather than loading them.
    private let loaded: [Element]?

    init(rowIDs: [Int64], batchSize: Int, load: @escaping ([Int64]) throws -> [Element]) {
        self.rowIDs = rowIDs
        self.batchSize = batchSize
        cache = BatchCache(load: load)
        loaded = nil
    }

    /// A collection of elements fetched already.
    init(_ elements: [Element]) {
        rowIDs = []
        batchSize = 1
        cache = BatchCache { _ in [] }
        loaded = elements
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { loaded?.count ?? rowIDs.count }

    /// The element at `position`, loading the batch it belongs to unless that batch is the one
    /// loaded last.
    ///
    /// - Parameter position: A valid index of the collection.
    /// - Returns: The element. Reaching one whose model was deleted from the store after the fetch
    ///   traps.
    public subscript(position: Int) -> Element {
        if let loaded { return loaded[position] }
        let batch = position / batchSize
        let elements = cache.elements(ofBatch: batch) {
            Array(rowIDs[(batch * batchSize)..<Swift.min((batch + 1) * batchSize, rowIDs.count)])
        }
        let offset = position - batch * batchSize
        precondition(offset < elements.count, "the model at position \(position) of the fetch results no longer exists")
        return elements[offset]
    }

    /// The batch most recently loaded.
    private final class BatchCache {
        let load: ([Int64]) throws -> [Element]
        var batch: Int?
        var elements: [Element] = []

        init(load: @escaping ([Int64]) throws -> [Element]) {
            self.load = load
        }

        func elements(ofBatch batch: Int, rowIDs: () -> [Int64]) -> [Element] {
            if self.batch != batch {
                do {
                    elements = try load(rowIDs())
                } catch {
                    fatalError("fetch results could not load batch \(batch): \(error)")
                }
                self.batch = batch
            }
            return elements
        }
    }
}
