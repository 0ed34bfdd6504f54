import Crypto
import Foundation

/// Names in PostgreSQL: always quoted (an unquoted name folds to lower case), and never longer
/// than PostgreSQL's 63 bytes, which it would otherwise cut silently, so that two long names
/// sharing their first 63 bytes became one.
enum PostgresNames {
    static let maximumBytes = 63

    /// `name` as a quoted identifier, shortened first when it is longer than 63 bytes.
    static func quoted(_ name: String) -> String {
        let name = shortened(name)
        // Every statement quotes its names: Foundation's replacing only where there is a quote.
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `schema.name`, both quoted.
    static func qualified(_ name: String, in schema: String) -> String {
        quoted(schema) + "." + quoted(name)
    }

    /// `name` when it fits in 63 bytes; else its first characters (up to 50 bytes), `_`, and 12
    /// hexadecimal digits of its SHA-256: the same long name always shortens the same way, and
    /// two long names with the same start shorten differently.
    static func shortened(_ name: String) -> String {
        guard name.utf8.count > maximumBytes else { return name }
        var prefix = ""
        for character in name {
            guard prefix.utf8.count + String(character).utf8.count <= 50 else { break }
            prefix.append(character)
        }
        let digest = SHA256.hash(data: Data(name.utf8)).prefix(6).map { String(format: "%02x", $0) }.joined()
        return prefix + "_" + digest
    }

    /// `text` as an SQL string constant.
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
