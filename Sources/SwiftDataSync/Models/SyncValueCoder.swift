import Foundation

/// Property values as the JSON text registers hold and the wire carries. Equal values give equal
/// text (keys sorted), and every value decodes to exactly what was encoded: a `Date` or a
/// `Double` keeps every bit, infinities and NaN included.
struct SyncValueCoder {
    private let encoder: JSONEncoder
    private let decoder: JSONDecoder

    init() {
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
    }

    /// The JSON text of `value`, which must be `Encodable`.
    func text(of value: Any) throws -> String {
        guard let encodable = value as? any Encodable else {
            throw SyncError.unsyncableValue(type: String(describing: type(of: value)))
        }
        return String(decoding: try encode(encodable), as: UTF8.self)
    }

    private func encode(_ value: any Encodable) throws -> Data {
        try encoder.encode(value)
    }

    /// The value `text` holds, of the type `keyPath`'s property has.
    func value(of text: String, for keyPath: any SyncWritableKeyPath) throws -> Any {
        try keyPath.decodeValue(from: Data(text.utf8), decoder: decoder)
    }

    /// The JSON text of a global identifier, or of `nil`.
    func text(ofGlobalID globalID: String?) -> String {
        guard let globalID else { return "null" }
        return (try? text(of: globalID)) ?? "null"
    }

    /// The global identifier a to-one register holds; `nil` for `null`.
    func globalID(in text: String) throws -> String? {
        try decoder.decode(String?.self, from: Data(text.utf8))
    }
}
