import Foundation

/// An `NSKeyedArchiver` archive, read as the property list it is (no class is instantiated:
/// Core Data's classes do not exist here): a model cache's objects, or the value of a
/// transformable attribute.
/// Follows the archive's references: an object is a reference (a `UID`: its index in
/// `$objects`) or a value; `$null` is nothing.
struct KeyedArchive {
    let objects: [Any]

    func resolve(_ value: Any?) -> Any? {
        guard let value else { return nil }
        if let index = Self.referenceIndex(value) {
            guard index < objects.count else { return nil }
            let object = objects[index]
            return (object as? String) == "$null" ? nil : object
        }
        return (value as? String) == "$null" ? nil : value
    }

    /// The archived object `value` refers to, as a dictionary of its keys.
    func object(_ value: Any?) -> [String: Any]? {
        Self.dictionary(resolve(value))
    }

    func className(of object: [String: Any]) -> String? {
        self.object(object["$class"])?["$classname"] as? String
    }

    func integer(_ value: Any?) -> Int? {
        let resolved = resolve(value)
        if let number = resolved as? Int { return number }
        if let number = resolved as? NSNumber { return number.intValue }
        return nil
    }

    /// The members of an archived collection: an array, a set or a dictionary's values
    /// (`NS.objects`), or the values of Core Data's known-keys dictionary (`values`, itself
    /// an array). Each entity and property names itself, so keys are not needed.
    func members(_ value: Any?) -> [Any]? {
        guard let collection = object(value) else { return nil }
        if let members = collection["NS.objects"] as? [Any] { return members }
        if let values = object(collection["values"]), let members = values["NS.objects"] as? [Any] { return members }
        if let members = collection["values"] as? [Any] { return members }
        return nil
    }

    /// A property list dictionary, as Foundation gives it (`[String: Any]`, or keyed by
    /// `AnyHashable` inside an archive).
    static func dictionary(_ value: Any?) -> [String: Any]? {
        if let dictionary = value as? [String: Any] { return dictionary }
        guard let dictionary = value as? [AnyHashable: Any] else { return nil }
        var converted: [String: Any] = [:]
        for (key, member) in dictionary {
            if let name = key.base as? String { converted[name] = member }
        }
        return converted
    }

    /// The index a keyed archive's reference (`CF$UID`) holds: Foundation gives references
    /// as objects of a class of its own, whose `value` is the index.
    static func referenceIndex(_ value: Any) -> Int? {
        if let dictionary = Self.dictionary(value), dictionary.count == 1, let index = dictionary["CF$UID"] as? Int { return index }
        guard String(describing: type(of: value)).contains("KeyedArchiverUID") else { return nil }
        for child in Mirror(reflecting: value).children where child.label == "value" {
            if let index = child.value as? any BinaryInteger { return Int(index) }
        }
        let text = String(describing: value)
        if let range = text.range(of: "value = ") {
            return Int(text[range.upperBound...].prefix { $0.isNumber })
        }
        return nil
    }

    /// The archive in `data`, when it is one (`$archiver` NSKeyedArchiver): its objects and
    /// the reference of its root object.
    static func read(_ data: Data) -> (archive: KeyedArchive, root: Any)? {
        guard data.starts(with: Array("bplist".utf8)),
              let plist = try? PropertyListSerialization.propertyList(from: data, format: nil),
              let dictionary = dictionary(plist), dictionary["$archiver"] as? String == "NSKeyedArchiver",
              let objects = dictionary["$objects"] as? [Any], let top = Self.dictionary(dictionary["$top"]), let root = top["root"]
        else { return nil }
        return (KeyedArchive(objects: objects), root)
    }

    /// The archived value `value` refers to as a plain property list value: strings, numbers,
    /// dates and data as they are; arrays, sets and dictionaries (`NS.objects`, `NS.keys`) with
    /// their members converted; `nil` for `$null` or an object of another class.
    func plainValue(_ value: Any?, depth: Int = 0) -> Any? {
        guard depth < 64, let resolved = resolve(value) else { return nil }
        guard let object = Self.dictionary(resolved) else { return resolved }
        if let string = object["NS.string"] as? String { return string }
        if let bytes = object["NS.bytes"] as? Data { return bytes }
        if let time = object["NS.time"] as? Double { return Date(timeIntervalSinceReferenceDate: time) }
        if let members = object["NS.objects"] as? [Any] {
            let converted = members.compactMap { plainValue($0, depth: depth + 1) }
            guard let keys = object["NS.keys"] as? [Any] else { return converted }
            var dictionary: [String: Any] = [:]
            for (key, member) in zip(keys, members) {
                guard let name = plainValue(key, depth: depth + 1) as? String, let converted = plainValue(member, depth: depth + 1) else { continue }
                dictionary[name] = converted
            }
            return dictionary
        }
        return nil
    }

    /// The value of the keyed archive in `data` as a plain binary property list (what a
    /// `PropertyListDecoder` reads); `nil` when `data` is not such an archive or holds objects
    /// of other classes.
    package static func plainPropertyList(from data: Data) -> Data? {
        guard let (archive, root) = read(data), let value = archive.plainValue(root) else { return nil }
        return try? PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
    }
}
