import MacroTesting
import OpenSwiftDataMacros
import SwiftSyntaxMacroExpansion
import Testing

/// What `@Model` adds to every class, whatever its properties: the backing data,
/// `schemaMetadata`, `init(backingData:)`, the observation registrar and its helpers, and the
/// conformances.
@Suite(.macros(["Model": model], indentationWidth: .spaces(4), record: .missing))
struct ModelExpansionTests {
    /// Every macro expanded, as the compiler does: the accessors and peer `@_PersistedProperty`
    /// adds, and `@Transient` on the generated storage expanding to nothing. (The other tests
    /// expand `@Model` alone, so the markers it attaches stay visible.)
    @Test func compilerExpansion() {
        assertMacro(allMacros) {
            """
            @Model final class Note {
                var text: String
                var pinned: Bool = false
            }
            """
        } expansion: {
            #"""
            final class Note {
                var text: String {
                    @storageRestrictions(accesses: _$backingData, initializes: _text)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.text, to: initialValue)
                        _text = _SwiftDataNoType()
                    }
                    get {
                        let keyPath = \Note.text
                        _$observationRegistrar.access(self, keyPath: keyPath)
                        return self.getValue(forKey: keyPath)
                    }
                    set {
                        let keyPath = \Note.text
                        _$observationRegistrar.withMutation(of: self, keyPath: keyPath) {
                            self.setValue(forKey: keyPath, to: newValue)
                        }
                    }
                }
                private var _text: _SwiftDataNoType
                var pinned: Bool {
                    @storageRestrictions(accesses: _$backingData, initializes: _pinned)
                    init(initialValue) {
                        if !_$backingData._$ignoresInitialValues {
                            _$backingData.setValue(forKey: \.pinned, to: initialValue)
                        }
                        _pinned = _SwiftDataNoType()
                    }
                    get {
                        let keyPath = \Note.pinned
                        _$observationRegistrar.access(self, keyPath: keyPath)
                        return self.getValue(forKey: keyPath)
                    }
                    set {
                        let keyPath = \Note.pinned
                        _$observationRegistrar.withMutation(of: self, keyPath: keyPath) {
                            self.setValue(forKey: keyPath, to: newValue)
                        }
                    }
                }
                private var _pinned: _SwiftDataNoType
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Note> = Note.createBackingData()

                var persistentBackingData: any OpenSwiftData.BackingData<Note> {
                    get {
                        _$backingData
                    }
                    set {
                        _$backingData = newValue
                    }
                }

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "text", keypath: \Note.text, defaultValue: nil, metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "pinned", keypath: \Note.pinned, defaultValue: (false as Bool), metadata: nil),
                    ]
                }

                init(backingData: any OpenSwiftData.BackingData<Note>) {
                    _text = _SwiftDataNoType()
                    _pinned = _SwiftDataNoType()
                    self.persistentBackingData = backingData
                }
                @exclusivity(unchecked) private nonisolated(unsafe) var _$observationRegistrar = OpenSwiftData.ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Note, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Note, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Note: nonisolated OpenSwiftData.PersistentModel {
            }

            extension Note: nonisolated Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Note's persistentModelID instead")
            extension Note: Sendable {
            }
            """#
        }
    }

    /// A model nested in a namespace (as versioned schemas are) is extended by its qualified name.
    @Test func nestedModel() {
        assertMacro {
            """
            enum SchemaV1 {
                @Model final class Film {
                    var title: String
                }
            }
            """
        } expansion: {
            #"""
            enum SchemaV1 {
                final class Film {
                    @_PersistedProperty
                    var title: String

                    @Transient
                    @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Film> = Film.createBackingData()

                    var persistentBackingData: any OpenSwiftData.BackingData<Film> {
                        get {
                            _$backingData
                        }
                        set {
                            _$backingData = newValue
                        }
                    }

                    static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                        return [
                            OpenSwiftData.Schema.PropertyMetadata(name: "title", keypath: \Film.title, defaultValue: nil, metadata: nil),
                        ]
                    }

                    init(backingData: any OpenSwiftData.BackingData<Film>) {
                        _title = _SwiftDataNoType()
                        self.persistentBackingData = backingData
                    }

                    @Transient
                    @exclusivity(unchecked) private nonisolated(unsafe) var _$observationRegistrar = OpenSwiftData.ModelObservationRegistrar()

                    internal nonisolated func access<_M>(keyPath: KeyPath<Film, _M>) {
                        _$observationRegistrar.access(self, keyPath: keyPath)
                    }

                    internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Film, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                        try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                    }

                    struct _SwiftDataNoType {
                    }
                }
            }

            extension SchemaV1.Film: nonisolated OpenSwiftData.PersistentModel {
            }

            extension SchemaV1.Film: nonisolated Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Film's persistentModelID instead")
            extension SchemaV1.Film: Sendable {
            }
            """#
        }
    }

    /// The compiler passes only the conformances the class lacks; only those are added.
    @Test func existingConformanceIsNotRepeated() {
        assertMacro(["Model": MacroSpec(type: PersistentModelMacro.self, conformances: ["PersistentModel", "Sendable"])]) {
            """
            @Model final class Note: Observable {
                var text: String
            }
            """
        } expansion: {
            #"""
            final class Note: Observable {
                @_PersistedProperty
                var text: String

                private typealias _$aModelClassCanOnlySubclassAModelClass = (any Observable)?

                @Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Note> = Note.createBackingData()

                var persistentBackingData: any OpenSwiftData.BackingData<Note> {
                    get {
                        _$backingData
                    }
                    set {
                        _$backingData = newValue
                    }
                }

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "text", keypath: \Note.text, defaultValue: nil, metadata: nil),
                    ]
                }

                init(backingData: any OpenSwiftData.BackingData<Note>) {
                    _text = _SwiftDataNoType()
                    self.persistentBackingData = backingData
                }

                @Transient
                @exclusivity(unchecked) private nonisolated(unsafe) var _$observationRegistrar = OpenSwiftData.ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Note, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Note, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Note: nonisolated OpenSwiftData.PersistentModel {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Note's persistentModelID instead")
            extension Note: Sendable {
            }
            """#
        }
    }
}
