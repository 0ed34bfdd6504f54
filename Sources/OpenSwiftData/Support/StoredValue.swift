import Foundation

/// A value as a store's column holds it: what a value codec turns a property's value into and
/// reads it back from, and what queries bind. Each store converts it to its database's own
/// values.
package enum StoredValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}
