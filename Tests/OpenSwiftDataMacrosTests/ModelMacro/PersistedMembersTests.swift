import MacroTesting
import Testing

/// Which members `@Model` persists: stored instance `var`s only.
@Suite(.macros(["Model": modelMetadataOnly], indentationWidth: .spaces(4), record: .missing))
struct PersistedMembersTests {
    /// Computed properties and methods declare no storage and are left alone.
    @Test func computedPropertiesAndMethodsAreNotPersisted() {
        assertMacro {
            """
            @Model final class Item {
                var name: String
                var computed: Int { 1 }
                var getSet: Int {
                    get { 1 }
                    set {}
                }
                func touch() {}
            }
            """
        } expansion: {
            #"""
            final class Item {
                @_PersistedProperty
                var name: String
                var computed: Int { 1 }
                var getSet: Int {
                    get { 1 }
                    set {}
                }
                func touch() {}

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "name", keypath: \Item.name, defaultValue: nil, metadata: nil),
                    ]
                }
            }
            """#
        }
    }

    @Test func staticAndClassPropertiesAreNotPersisted() {
        assertMacro {
            """
            @Model final class Item {
                var name: String
                static var shared = 0
                class var kind: String { "" }
            }
            """
        } expansion: {
            #"""
            final class Item {
                @_PersistedProperty
                var name: String
                static var shared = 0
                class var kind: String { "" }

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "name", keypath: \Item.name, defaultValue: nil, metadata: nil),
                    ]
                }
            }
            """#
        }
    }

    /// `@Transient` properties keep plain storage, whatever their form, and stay out of the metadata.
    @Test func transientPropertiesAreNotPersisted() {
        assertMacro {
            """
            @Model final class Trip {
                var name: String
                @Transient var scratch = 0
                @Transient var cache: [String: Int]?
                @Transient lazy var formatter: Formatter = Formatter()
                @Transient let created = Date()
                @Transient var observed: Int = 0 {
                    didSet { print(observed) }
                }
            }
            """
        } expansion: {
            #"""
            final class Trip {
                @_PersistedProperty
                var name: String
                @Transient var scratch = 0
                @Transient var cache: [String: Int]?
                @Transient lazy var formatter: Formatter = Formatter()
                @Transient let created = Date()
                @Transient var observed: Int = 0 {
                    didSet { print(observed) }
                }

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "name", keypath: \Trip.name, defaultValue: nil, metadata: nil),
                    ]
                }
            }
            """#
        }
    }

    /// A model with nothing to persist has empty metadata.
    @Test func nothingToPersist() {
        assertMacro {
            """
            @Model final class Empty {
                init() {}
            }
            """
        } expansion: {
            """
            final class Empty {
                init() {}

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return []
                }
            }
            """
        }
    }

    /// A model that is also Codable: its coding keys, `init(from:)` and `encode(to:)` are left
    /// as written, and only its stored property is persisted.
    @Test func codableModel() {
        assertMacro {
            """
            @Model final class Kennel: Codable {
                var name: String

                enum CodingKeys: String, CodingKey {
                    case name
                }

                required init(from decoder: any Decoder) throws {
                    name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
                }

                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: CodingKeys.self)
                    try container.encode(name, forKey: .name)
                }
            }
            """
        } expansion: {
            #"""
            final class Kennel: Codable {
                @_PersistedProperty
                var name: String

                enum CodingKeys: String, CodingKey {
                    case name
                }

                required init(from decoder: any Decoder) throws {
                    name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
                }

                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: CodingKeys.self)
                    try container.encode(name, forKey: .name)
                }

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "name", keypath: \Kennel.name, defaultValue: nil, metadata: nil),
                    ]
                }
            }
            """#
        }
    }
}
