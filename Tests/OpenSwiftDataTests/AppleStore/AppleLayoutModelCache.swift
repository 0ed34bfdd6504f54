import Foundation
@testable import OpenSwiftData

/// The model cache (`Z_MODELCACHE.Z_CONTENT`) of ``AppleLayoutStore``'s trips: a keyed archive
/// of the model, under the class names and keys Core Data archives a model with, deflated raw.
/// The archive is made by Foundation's `NSKeyedArchiver` from classes of the tests' own that
/// encode those keys.
enum AppleLayoutModelCache {
    static func trips() throws -> Data {
        let trip = ArchivedEntity(name: "Trip", properties: [
            ArchivedAttribute(name: "name", type: 700, valueClass: "NSString", isOptional: false),
            ArchivedAttribute(name: "start", type: 900, valueClass: "NSDate", isOptional: true),
            ArchivedAttribute(name: "budget", type: 500, valueClass: "NSNumber", isOptional: false),
            ArchivedAttribute(name: "photo", type: 1000, valueClass: "NSData", isOptional: true),
            ArchivedAttribute(name: "id", type: 1100, valueClass: "NSUUID", isOptional: false),
            ArchivedRelationship(name: "stops", destination: "Stop", inverse: "trip", maximum: 0, deleteRule: 2),
            ArchivedRelationship(name: "tags", destination: "Tag", inverse: "trips", maximum: 0, deleteRule: 1),
        ])
        let stop = ArchivedEntity(name: "Stop", properties: [
            ArchivedAttribute(name: "place", type: 700, valueClass: "NSString", isOptional: false),
            ArchivedRelationship(name: "trip", destination: "Trip", inverse: "stops", maximum: 1, deleteRule: 1),
        ])
        let tag = ArchivedEntity(name: "Tag", properties: [
            ArchivedAttribute(name: "name", type: 700, valueClass: "NSString", isOptional: false),
            ArchivedRelationship(name: "trips", destination: "Trip", inverse: "tags", maximum: 0, deleteRule: 1),
        ])
        return try archive([trip, stop, tag])
    }

    /// The model cache of a model of `entities`.
    static func archive(_ entities: [ArchivedEntity]) throws -> Data {
        let archiver = NSKeyedArchiver(requiringSecureCoding: false)
        archiver.encode(ArchivedModel(entities: entities), forKey: NSKeyedArchiveRootObjectKey)
        archiver.finishEncoding()
        // Foundation on Linux archives a class under its own name whatever `setClassName` says:
        // the archive's class records are renamed to Core Data's.
        let coreDataNames = [
            String(reflecting: ArchivedModel.self): "NSManagedObjectModel", String(reflecting: ArchivedEntity.self): "NSEntityDescription",
            String(reflecting: ArchivedAttribute.self): "NSAttributeDescription", String(reflecting: ArchivedRelationship.self): "NSRelationshipDescription",
        ]
        guard var archive = try PropertyListSerialization.propertyList(from: archiver.encodedData, format: nil) as? [String: Any],
              var objects = archive["$objects"] as? [Any] else { throw CocoaError(.coderInvalidValue) }
        for index in objects.indices {
            guard let record = objects[index] as? [AnyHashable: Any], let name = record["$classname"] as? String, let renamed = coreDataNames[name] else { continue }
            objects[index] = ["$classname": renamed, "$classes": [renamed, "NSObject"]] as [String: Any]
        }
        archive["$objects"] = objects
        let data = try PropertyListSerialization.data(fromPropertyList: archive, format: .binary, options: 0)
        guard let deflated = RawDeflate.deflate(data) else { throw CocoaError(.coderInvalidValue) }
        return deflated
    }
}

final class ArchivedModel: NSObject, NSCoding {
    let entities: [ArchivedEntity]
    init(entities: [ArchivedEntity]) { self.entities = entities }
    required init?(coder: NSCoder) { nil }
    func encode(with coder: NSCoder) {
        coder.encode(NSDictionary(objects: entities, forKeys: entities.map { $0.name as NSString }), forKey: "NSEntities")
        coder.encode(NSSet(array: ["1.0.0"]), forKey: "NSVersionIdentifiers")
    }
}

final class ArchivedEntity: NSObject, NSCoding {
    let name: String
    let properties: [NSObject]
    var superentity: ArchivedEntity?
    init(name: String, properties: [NSObject]) {
        self.name = name
        self.properties = properties
    }
    required init?(coder: NSCoder) { nil }
    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "NSEntityName")
        coder.encode(name, forKey: "NSClassNameForEntity")
        if let superentity { coder.encode(superentity, forKey: "NSSuperentity") }
        let names = properties.map { (($0 as? ArchivedAttribute)?.name ?? ($0 as? ArchivedRelationship)?.name ?? "") as NSString }
        coder.encode(NSDictionary(objects: properties, forKeys: names), forKey: "NSProperties")
    }
}

final class ArchivedAttribute: NSObject, NSCoding {
    let name: String, type: Int, valueClass: String, isOptional: Bool
    init(name: String, type: Int, valueClass: String, isOptional: Bool) {
        self.name = name
        self.type = type
        self.valueClass = valueClass
        self.isOptional = isOptional
    }
    required init?(coder: NSCoder) { nil }
    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "NSPropertyName")
        coder.encode(type, forKey: "NSAttributeType")
        coder.encode(valueClass, forKey: "NSAttributeValueClassName")
        if isOptional { coder.encode(true, forKey: "NSIsOptional") }
    }
}

final class ArchivedRelationship: NSObject, NSCoding {
    let name: String, destination: String, inverse: String, maximum: Int, deleteRule: Int
    init(name: String, destination: String, inverse: String, maximum: Int, deleteRule: Int) {
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.maximum = maximum
        self.deleteRule = deleteRule
    }
    required init?(coder: NSCoder) { nil }
    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "NSPropertyName")
        coder.encode(destination, forKey: "_NSDestinationEntityName")
        coder.encode(inverse, forKey: "_NSInverseRelationshipName")
        coder.encode(maximum, forKey: "NSMaxCount")
        coder.encode(0, forKey: "NSMinCount")
        coder.encode(deleteRule, forKey: "NSDeleteRule")
        // SwiftData marks a to-one optional (`Trip?`); a to-many (`[Stop]`) is not.
        if maximum == 1 { coder.encode(true, forKey: "NSIsOptional") }
    }
}
