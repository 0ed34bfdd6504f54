/// Text for a message, made only when a message needs it: describing a key path or a type
/// costs more than translating the predicate that mentions it.
struct DeferredText: CustomStringConvertible {
    private let make: () -> String

    init(_ make: @escaping () -> String) {
        self.make = make
    }

    var description: String { make() }
}
