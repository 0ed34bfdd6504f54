import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite struct AttributePropertyMacroTests {
    /// `@Attribute` is a marker: it expands to nothing on its own.
    @Test func generatesNothing() {
        assertExpansion(
            #"""
            final class Trip {
                @Attribute(.unique) var code: String
            }
            """#,
            expandedSource: #"""
            final class Trip {
                var code: String
            }
            """#,
            macros: only("Attribute")
        )
    }

    /// Options, `originalName` and `hashModifier` reach `schemaMetadata` as `Schema.Attribute(...)`, argument for argument.
    @Test func argumentsAreRecordedVerbatim() {
        assertExpansion(
            #"""
            @Model
            final class Track {
                @Attribute(.unique, originalName: "title") var code: String
                @Attribute(.externalStorage, .allowsCloudEncryption) var artwork: Data?
                @Attribute(hashModifier: "v2") var price: Int = 0
                @Attribute var plain: String
                @Attribute() var empty: String
                @OpenSwiftData.Attribute(.spotlight) var qualified: String
                @Attribute(.transformable(by: "ColorTransformer")) var color: Color?
            }
            """#,
            expandedSource: #"""

            final class Track {
                @Attribute(.unique, originalName: "title")
                @_PersistedProperty var code: String
                @Attribute(.externalStorage, .allowsCloudEncryption)
                @_PersistedProperty var artwork: Data?
                @Attribute(hashModifier: "v2")
                @_PersistedProperty var price: Int = 0
                @Attribute
                @_PersistedProperty var plain: String
                @Attribute()
                @_PersistedProperty var empty: String
                @OpenSwiftData.Attribute(.spotlight)
                @_PersistedProperty var qualified: String
                @Attribute(.transformable(by: "ColorTransformer"))
                @_PersistedProperty var color: Color?

                @Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Track> = Track.createBackingData()

                var persistentBackingData: any OpenSwiftData.BackingData<Track> {
                    get {
                        _$backingData
                    }
                    set {
                        _$backingData = newValue
                    }
                }

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "code", keypath: \Track.code, defaultValue: nil, metadata: OpenSwiftData.Schema.Attribute(.unique, originalName: "title")),
                        OpenSwiftData.Schema.PropertyMetadata(name: "artwork", keypath: \Track.artwork, defaultValue: nil, metadata: OpenSwiftData.Schema.Attribute(.externalStorage, .allowsCloudEncryption)),
                        OpenSwiftData.Schema.PropertyMetadata(name: "price", keypath: \Track.price, defaultValue: (0 as Int), metadata: OpenSwiftData.Schema.Attribute(hashModifier: "v2")),
                        OpenSwiftData.Schema.PropertyMetadata(name: "plain", keypath: \Track.plain, defaultValue: nil, metadata: OpenSwiftData.Schema.Attribute()),
                        OpenSwiftData.Schema.PropertyMetadata(name: "empty", keypath: \Track.empty, defaultValue: nil, metadata: OpenSwiftData.Schema.Attribute()),
                        OpenSwiftData.Schema.PropertyMetadata(name: "qualified", keypath: \Track.qualified, defaultValue: nil, metadata: OpenSwiftData.Schema.Attribute(.spotlight)),
                        OpenSwiftData.Schema.PropertyMetadata(name: "color", keypath: \Track.color, defaultValue: nil, metadata: OpenSwiftData.Schema.Attribute(.transformable(by: "ColorTransformer"))),
                    ]
                }

                init(backingData: any OpenSwiftData.BackingData<Track>) {
                    _code = _SwiftDataNoType()
                    _artwork = _SwiftDataNoType()
                    _price = _SwiftDataNoType()
                    _plain = _SwiftDataNoType()
                    _empty = _SwiftDataNoType()
                    _qualified = _SwiftDataNoType()
                    _color = _SwiftDataNoType()
                    self.persistentBackingData = backingData
                }

                @Transient
                @exclusivity(unchecked) private nonisolated(unsafe) var _$observationRegistrar = OpenSwiftData.ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Track, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Track, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Track: nonisolated OpenSwiftData.PersistentModel {
            }

            extension Track: nonisolated Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Track's persistentModelID instead")
            extension Track: Sendable {
            }
            """#,
            macros: only("Model")
        )
    }

    /// A property is an attribute or a relationship, not both.
    @Test func cannotBeCombinedWithRelationship() {
        assertExpansion(
            #"""
            @Model
            final class Trip {
                @Attribute(.unique) @Relationship var owner: Person?
            }
            """#,
            expandedSource: #"""

            final class Trip {
                @Attribute(.unique) @Relationship var owner: Person?

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
                    return []
                }

                init(backingData: any OpenSwiftData.BackingData<Trip>) {
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
            """#,
            diagnostics: [
                DiagnosticSpec(
                    message: "'owner' cannot be marked both '@Attribute' and '@Relationship'; keep one of them",
                    line: 3,
                    column: 25
                ),
            ],
            macros: only("Model")
        )
    }
}
