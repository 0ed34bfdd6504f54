import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite struct TransientPropertyMacroTests {
    /// `@Transient` is a marker: it expands to nothing on its own.
    @Test func generatesNothing() {
        assertExpansion(
            #"""
            final class Trip {
                @Transient var scratch = 0
            }
            """#,
            expandedSource: #"""
            final class Trip {
                var scratch = 0
            }
            """#,
            macros: only("Transient")
        )
    }

    /// Transient properties keep plain storage and stay out of `schemaMetadata` and `init(backingData:)`.
    @Test func transientPropertiesAreLeftAlone() {
        assertExpansion(
            #"""
            @Model
            final class Trip {
                var name: String
                @Transient var scratch = 0
                @Transient var cache: [String: Int]?
                @Transient lazy var formatter: Formatter = Formatter()
                @Transient let created = Date()
                @Transient var observed: Int = 0 {
                    didSet { print(observed) }
                }
            }
            """#,
            expandedSource: #"""

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
                        OpenSwiftData.Schema.PropertyMetadata(name: "name", keypath: \Trip.name, defaultValue: nil, metadata: nil),
                    ]
                }

                init(backingData: any OpenSwiftData.BackingData<Trip>) {
                    _name = _SwiftDataNoType()
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

    /// Without an initial value (and not optional) `init(backingData:)` could not initialise it; the fix-it adds a placeholder.
    @Test func needsAnInitialValue() {
        assertExpansion(
            #"""
            @Model
            final class Trip {
                @Transient var scratch: Int
                @Transient let tag: String?
            }
            """#,
            expandedSource: #"""

            final class Trip {
                @Transient var scratch: Int
                @Transient let tag: String?

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
                    message: "@Transient property 'scratch' needs an initial value: models loaded from a store are created by 'init(backingData:)', which does not run your init; add '= <value>' or make it optional",
                    line: 3,
                    column: 20,
                    fixIts: [FixItSpec(message: "add an initial value")]
                ),
                DiagnosticSpec(
                    message: "@Transient property 'tag' needs an initial value: models loaded from a store are created by 'init(backingData:)', which does not run your init; add '= <value>' or make it optional",
                    line: 4,
                    column: 20,
                    fixIts: [FixItSpec(message: "add an initial value")]
                ),
            ],
            macros: only("Model"),
            applyFixIts: ["add an initial value"],
            fixedSource: #"""
            @Model
            final class Trip {
                @Transient var scratch: Int = <#initial value#>
                @Transient let tag: String? = <#initial value#>
            }
            """#
        )
    }
}
