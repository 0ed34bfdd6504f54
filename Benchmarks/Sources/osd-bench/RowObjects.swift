import Observation

/// The least any API that fetches rows as objects pays, measured by the `raw-class` and
/// `raw-observable` drivers of the fetch cases: rows read through the raw C API, as the `raw`
/// driver reads them, and each kept in an object of its own.
///
/// - `raw-class` keeps each row in a plain final class instance: one heap object per row.
/// - `raw-observable` keeps it in an object that is `Observable` the way the `@Observable` macro
///   makes a class so (an `ObservationRegistrar` created with the object, every read reported to
///   it), which is what SwiftData's fetch hands back: its models are observable.
///
/// Ours over `raw-observable` is then the cost of everything besides being an observable object
/// per row (identity map, change tracking, typed access through the backing data, relationships).
enum RowObjects {
    static let drivers = ["raw-class", "raw-observable"]

    /// Reads every row with `next` (nil at the end), keeps them as `driver` says (`raw`: the
    /// values themselves in an array), and returns the sum of `checksum` over what was kept,
    /// read back through the objects.
    @inline(__always)
    static func keep<Value>(as driver: String, reading next: () throws -> Value?, checksum: (Value) -> Int) rethrows -> Int {
        switch driver {
        case "raw-class":
            var objects: [RowObject<Value>] = []
            while let value = try next() { objects.append(RowObject(value)) }
            return objects.reduce(0) { $0 &+ checksum($1.value) }
        case "raw-observable":
            var objects: [ObservableRow<Value>] = []
            while let value = try next() { objects.append(ObservableRow(value)) }
            // Made once: a key path in generic code is instantiated each time it is evaluated,
            // where a model's getter uses one its non-generic class has made once.
            let keyPath = ObservableRow<Value>.valueKeyPath
            return objects.reduce(0) { sum, object in sum &+ object.read(checksum, reporting: keyPath) }
        default:
            var values: [Value] = []
            while let value = try next() { values.append(value) }
            return values.reduce(0) { $0 &+ checksum($1) }
        }
    }
}

/// One row's values in a plain class instance.
final class RowObject<Value> {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// One row's values in an observable object, as `@Observable` generates one: the registrar is a
/// stored property made with the object, and a read reports itself to it before returning.
final class ObservableRow<Value>: Observable {
    private let registrar = ObservationRegistrar()
    private let value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// The key path a read reports.
    static var valueKeyPath: KeyPath<ObservableRow, Value> { \.value }

    /// What `body` computes from the row, reported as one read of `keyPath`, ``valueKeyPath``
    /// (a model's getter reports each property it reads; a checksum here reads one or two).
    func read<Result>(_ body: (Value) -> Result, reporting keyPath: KeyPath<ObservableRow, Value>) -> Result {
        registrar.access(self, keyPath: keyPath)
        return body(value)
    }
}
