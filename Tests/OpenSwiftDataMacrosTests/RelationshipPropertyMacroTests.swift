import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite struct RelationshipPropertyMacroTests {
    /// `@Relationship` is a marker: it expands to nothing on its own.
    @Test func generatesNothing() {
        assertExpansion(
            #"""
            final class Trip {
                @Relationship(deleteRule: .cascade) var stops: [Stop] = []
            }
            """#,
            expandedSource: #"""
            final class Trip {
                var stops: [Stop] = []
            }
            """#,
            macros: only("Relationship")
        )
    }

    /// Delete rule, inverse and every other argument reach `schemaMetadata` as `Schema.Relationship(...)`.
    @Test func argumentsAreRecordedVerbatim() {
        assertExpansion(
            #"""
            @Model
            final class Trip {
                @Relationship(deleteRule: .cascade, inverse: \Stop.trip) var stops: [Stop] = []
                @Relationship(.unique, deleteRule: .deny, minimumModelCount: 1, maximumModelCount: 3, originalName: "guides", hashModifier: "h") var guides: [Person]?
                @Relationship var owner: Person?
            }
            """#,
            expandedSource: #"""

            final class Trip {
                @Relationship(deleteRule: .cascade, inverse: \Stop.trip)
                @_PersistedProperty var stops: [Stop] = []
                @Relationship(.unique, deleteRule: .deny, minimumModelCount: 1, maximumModelCount: 3, originalName: "guides", hashModifier: "h")
                @_PersistedProperty var guides: [Person]?
                @Relationship
                @_PersistedProperty var owner: Person?

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
                        OpenSwiftData.Schema.PropertyMetadata(name: "stops", keypath: \Trip.stops, defaultValue: ([] as [Stop]), metadata: OpenSwiftData.Schema.Relationship(deleteRule: .cascade, inverse: \Stop.trip)),
                        OpenSwiftData.Schema.PropertyMetadata(name: "guides", keypath: \Trip.guides, defaultValue: nil, metadata: OpenSwiftData.Schema.Relationship(.unique, deleteRule: .deny, minimumModelCount: 1, maximumModelCount: 3, originalName: "guides", hashModifier: "h")),
                        OpenSwiftData.Schema.PropertyMetadata(name: "owner", keypath: \Trip.owner, defaultValue: nil, metadata: OpenSwiftData.Schema.Relationship()),
                    ]
                }

                init(backingData: any OpenSwiftData.BackingData<Trip>) {
                    _stops = _SwiftDataNoType()
                    _guides = _SwiftDataNoType()
                    _owner = _SwiftDataNoType()
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
            macros: only("Model")
        )
    }

    /// `inverse: nil` written out means one-way, which an omitted argument cannot say: it is wrapped in `_explicitlyUnidirectional`.
    @Test func explicitNilInverseIsUnidirectional() {
        assertExpansion(
            #"""
            @Model
            final class Stop {
                @Relationship(inverse: nil) var photo: Photo?
                @Relationship(deleteRule: .cascade, inverse: nil, originalName: "image") var cover: Photo?
            }
            """#,
            expandedSource: #"""

            final class Stop {
                @Relationship(inverse: nil)
                @_PersistedProperty var photo: Photo?
                @Relationship(deleteRule: .cascade, inverse: nil, originalName: "image")
                @_PersistedProperty var cover: Photo?

                @Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Stop> = Stop.createBackingData()

                var persistentBackingData: any OpenSwiftData.BackingData<Stop> {
                    get {
                        _$backingData
                    }
                    set {
                        _$backingData = newValue
                    }
                }

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "photo", keypath: \Stop.photo, defaultValue: nil, metadata: OpenSwiftData.Schema.Relationship._explicitlyUnidirectional(OpenSwiftData.Schema.Relationship())),
                        OpenSwiftData.Schema.PropertyMetadata(name: "cover", keypath: \Stop.cover, defaultValue: nil, metadata: OpenSwiftData.Schema.Relationship._explicitlyUnidirectional(OpenSwiftData.Schema.Relationship(deleteRule: .cascade, originalName: "image"))),
                    ]
                }

                init(backingData: any OpenSwiftData.BackingData<Stop>) {
                    _photo = _SwiftDataNoType()
                    _cover = _SwiftDataNoType()
                    self.persistentBackingData = backingData
                }

                @Transient
                @exclusivity(unchecked) private nonisolated(unsafe) var _$observationRegistrar = OpenSwiftData.ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Stop, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Stop, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Stop: nonisolated OpenSwiftData.PersistentModel {
            }

            extension Stop: nonisolated Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Stop's persistentModelID instead")
            extension Stop: Sendable {
            }
            """#,
            macros: only("Model")
        )
    }

    /// A relationship cannot also be @Transient.
    @Test func cannotBeTransient() {
        assertExpansion(
            #"""
            @Model
            final class Stop {
                @Transient @Relationship var trip: Trip? = nil
            }
            """#,
            expandedSource: #"""

            final class Stop {
                @Transient @Relationship var trip: Trip? = nil

                @Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Stop> = Stop.createBackingData()

                var persistentBackingData: any OpenSwiftData.BackingData<Stop> {
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

                init(backingData: any OpenSwiftData.BackingData<Stop>) {
                    self.persistentBackingData = backingData
                }

                @Transient
                @exclusivity(unchecked) private nonisolated(unsafe) var _$observationRegistrar = OpenSwiftData.ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Stop, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Stop, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Stop: nonisolated OpenSwiftData.PersistentModel {
            }

            extension Stop: nonisolated Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Stop's persistentModelID instead")
            extension Stop: Sendable {
            }
            """#,
            diagnostics: [
                DiagnosticSpec(
                    message: "'trip' cannot be marked both '@Transient' and '@Relationship'; keep one of them",
                    line: 3,
                    column: 16
                ),
            ],
            macros: only("Model")
        )
    }
}
