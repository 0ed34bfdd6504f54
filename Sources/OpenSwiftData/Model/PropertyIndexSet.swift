/// A set of property indices (positions in ``ModelLayout/properties``) that needs no heap
/// storage for a model's first 64 properties: the first change to a saved model, made to a
/// million models in a bulk edit, then costs no allocation.
package struct PropertyIndexSet: ExpressibleByArrayLiteral, Equatable {
    private var first64: UInt64 = 0
    private var beyond: Set<Int> = []

    package init(arrayLiteral indices: Int...) {
        for index in indices { insert(index) }
    }

    var isEmpty: Bool {
        first64 == 0 && beyond.isEmpty
    }

    package func contains(_ index: Int) -> Bool {
        index < 64 ? first64 & (1 << UInt64(index)) != 0 : beyond.contains(index)
    }

    mutating func insert(_ index: Int) {
        if index < 64 {
            first64 |= 1 << UInt64(index)
        } else {
            beyond.insert(index)
        }
    }
}
