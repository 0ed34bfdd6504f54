import MacroTesting
import Testing

/// How each persisted attribute reaches `schemaMetadata`: its name, key path, initial value and
/// `@Attribute` arguments.
@Suite(.macros(["Model": modelMetadataOnly], indentationWidth: .spaces(4), record: .missing))
struct AttributeExpansionTests {
    @Test func storedProperty() {
        assertMacro {
            """
            @Model final class Trip {
                var name: String
            }
            """
        } expansion: {
            #"""
            final class Trip {
                @_PersistedProperty
                var name: String

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "name", keypath: \Trip.name, defaultValue: nil, metadata: nil),
                    ]
                }
            }
            """#
        }
    }

    /// An optional without an initializer starts as nil, but no default value is recorded.
    @Test func optionalProperty() {
        assertMacro {
            """
            @Model final class Trip {
                var notes: String?
            }
            """
        } expansion: {
            #"""
            final class Trip {
                @_PersistedProperty
                var notes: String?

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "notes", keypath: \Trip.notes, defaultValue: nil, metadata: nil),
                    ]
                }
            }
            """#
        }
    }

    /// The initial value is recorded as `(expression as DeclaredType)`.
    @Test func defaultValue() {
        assertMacro {
            """
            @Model final class Trip {
                var start: Date = .now
            }
            """
        } expansion: {
            #"""
            final class Trip {
                @_PersistedProperty
                var start: Date = .now

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "start", keypath: \Trip.start, defaultValue: (.now as Date), metadata: nil),
                    ]
                }
            }
            """#
        }
    }

    /// Literals, collections, calls and member references are cast alike.
    @Test func defaultValuesOfEachKind() {
        assertMacro {
            """
            @Model final class Defaults {
                var count: Int = 0
                var offset: Int = -1
                var title: String = "Untitled"
                var tags: [String] = []
                var scores: [String: Int] = [:]
                var id: UUID = UUID()
                var pi: Double = Double.pi
            }
            """
        } expansion: {
            #"""
            final class Defaults {
                @_PersistedProperty
                var count: Int = 0
                @_PersistedProperty
                var offset: Int = -1
                @_PersistedProperty
                var title: String = "Untitled"
                @_PersistedProperty
                var tags: [String] = []
                @_PersistedProperty
                var scores: [String: Int] = [:]
                @_PersistedProperty
                var id: UUID = UUID()
                @_PersistedProperty
                var pi: Double = Double.pi

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "count", keypath: \Defaults.count, defaultValue: (0 as Int), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "offset", keypath: \Defaults.offset, defaultValue: (-1 as Int), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "title", keypath: \Defaults.title, defaultValue: ("Untitled" as String), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "tags", keypath: \Defaults.tags, defaultValue: ([] as [String]), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "scores", keypath: \Defaults.scores, defaultValue: ([:] as [String: Int]), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "id", keypath: \Defaults.id, defaultValue: (UUID() as UUID), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "pi", keypath: \Defaults.pi, defaultValue: (Double.pi as Double), metadata: nil),
                    ]
                }
            }
            """#
        }
    }

    @Test func optionalDefaultValues() {
        assertMacro {
            """
            @Model final class Trip {
                var nothing: String? = nil
                var maybe: String? = "x"
            }
            """
        } expansion: {
            #"""
            final class Trip {
                @_PersistedProperty
                var nothing: String? = nil
                @_PersistedProperty
                var maybe: String? = "x"

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "nothing", keypath: \Trip.nothing, defaultValue: (nil as String?), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "maybe", keypath: \Trip.maybe, defaultValue: ("x" as String?), metadata: nil),
                    ]
                }
            }
            """#
        }
    }

    /// `T!` cannot follow `as`; the value is cast as `T?`.
    @Test func implicitlyUnwrappedOptionalIsCastAsOptional() {
        assertMacro {
            """
            @Model final class Trip {
                var forced: Int! = 3
            }
            """
        } expansion: {
            #"""
            final class Trip {
                @_PersistedProperty
                var forced: Int! = 3

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "forced", keypath: \Trip.forced, defaultValue: (3 as Int?), metadata: nil),
                    ]
                }
            }
            """#
        }
    }

    /// With no type written the value is recorded without a cast: Swift infers the type from it.
    @Test func inferredType() {
        assertMacro {
            """
            @Model final class Counter {
                var count = 0
                var tags = [String]()
            }
            """
        } expansion: {
            #"""
            final class Counter {
                @_PersistedProperty
                var count = 0
                @_PersistedProperty
                var tags = [String]()

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "count", keypath: \Counter.count, defaultValue: (0), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "tags", keypath: \Counter.tags, defaultValue: ([String]()), metadata: nil),
                    ]
                }
            }
            """#
        }
    }

    /// A backticked name keeps its backticks in the key path only, not in the metadata's name or
    /// the `_default` placeholder `init(backingData:)` sets (hence the whole `@Model` here).
    @Test func backtickedName() {
        assertMacro(["Model": model]) {
            """
            @Model final class Trip {
                var `default`: Bool = true
            }
            """
        } expansion: {
            #"""
            final class Trip {
                @_PersistedProperty
                var `default`: Bool = true

                @Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Trip> = Trip.createBackingData()

                var persistentBackingData: any OpenSwiftData.BackingData<Trip> {
                    get {
                        _$backingData
                    }
                    set {
                        _$backingData = newValue
                    }
                }

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "default", keypath: \Trip.`default`, defaultValue: (true as Bool), metadata: nil),
                    ]
                }

                init(backingData: any OpenSwiftData.BackingData<Trip>) {
                    _default = _SwiftDataNoType()
                    self.persistentBackingData = backingData
                }

                @Transient
                @exclusivity(unchecked) private nonisolated(unsafe) var _$observationRegistrar = OpenSwiftData.ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Trip, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Trip, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Trip: nonisolated OpenSwiftData.PersistentModel {
            }

            extension Trip: nonisolated Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Trip's persistentModelID instead")
            extension Trip: Sendable {
            }
            """#
        }
    }

    @Test func uniqueAttribute() {
        assertMacro {
            """
            @Model final class Trip {
                @Attribute(.unique) var code: String
            }
            """
        } expansion: {
            #"""
            final class Trip {
                @Attribute(.unique)
                @_PersistedProperty var code: String

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "code", keypath: \Trip.code, defaultValue: nil, metadata: OpenSwiftData.Schema.Attribute(.unique)),
                    ]
                }
            }
            """#
        }
    }

    @Test func originalName() {
        assertMacro {
            """
            @Model final class Trip {
                @Attribute(.unique, originalName: "title") var code: String
            }
            """
        } expansion: {
            #"""
            final class Trip {
                @Attribute(.unique, originalName: "title")
                @_PersistedProperty var code: String

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "code", keypath: \Trip.code, defaultValue: nil, metadata: OpenSwiftData.Schema.Attribute(.unique, originalName: "title")),
                    ]
                }
            }
            """#
        }
    }

    @Test func severalOptions() {
        assertMacro {
            """
            @Model final class Track {
                @Attribute(.externalStorage, .allowsCloudEncryption) var artwork: Data?
            }
            """
        } expansion: {
            #"""
            final class Track {
                @Attribute(.externalStorage, .allowsCloudEncryption)
                @_PersistedProperty var artwork: Data?

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "artwork", keypath: \Track.artwork, defaultValue: nil, metadata: OpenSwiftData.Schema.Attribute(.externalStorage, .allowsCloudEncryption)),
                    ]
                }
            }
            """#
        }
    }

    @Test func hashModifier() {
        assertMacro {
            """
            @Model final class Track {
                @Attribute(hashModifier: "v2") var price: Int = 0
            }
            """
        } expansion: {
            #"""
            final class Track {
                @Attribute(hashModifier: "v2")
                @_PersistedProperty var price: Int = 0

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "price", keypath: \Track.price, defaultValue: (0 as Int), metadata: OpenSwiftData.Schema.Attribute(hashModifier: "v2")),
                    ]
                }
            }
            """#
        }
    }

    @Test func transformable() {
        assertMacro {
            """
            @Model final class Track {
                @Attribute(.transformable(by: "ColorTransformer")) var color: Color?
            }
            """
        } expansion: {
            #"""
            final class Track {
                @Attribute(.transformable(by: "ColorTransformer"))
                @_PersistedProperty var color: Color?

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "color", keypath: \Track.color, defaultValue: nil, metadata: OpenSwiftData.Schema.Attribute(.transformable(by: "ColorTransformer"))),
                    ]
                }
            }
            """#
        }
    }

    /// `@Attribute` and `@Attribute()` both record an attribute with no options.
    @Test func attributeWithoutArguments() {
        assertMacro {
            """
            @Model final class Track {
                @Attribute var plain: String
                @Attribute() var empty: String
            }
            """
        } expansion: {
            #"""
            final class Track {
                @Attribute
                @_PersistedProperty var plain: String
                @Attribute()
                @_PersistedProperty var empty: String

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "plain", keypath: \Track.plain, defaultValue: nil, metadata: OpenSwiftData.Schema.Attribute()),
                        OpenSwiftData.Schema.PropertyMetadata(name: "empty", keypath: \Track.empty, defaultValue: nil, metadata: OpenSwiftData.Schema.Attribute()),
                    ]
                }
            }
            """#
        }
    }

    @Test func moduleQualifiedAttribute() {
        assertMacro {
            """
            @Model final class Track {
                @OpenSwiftData.Attribute(.spotlight) var title: String
            }
            """
        } expansion: {
            #"""
            final class Track {
                @OpenSwiftData.Attribute(.spotlight)
                @_PersistedProperty var title: String

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "title", keypath: \Track.title, defaultValue: nil, metadata: OpenSwiftData.Schema.Attribute(.spotlight)),
                    ]
                }
            }
            """#
        }
    }
}
