import MacroTesting
import Testing

/// The members that satisfy `PersistentModel` take the class's access level, and a class that
/// can be subclassed gets a `required` `init(backingData:)`.
@Suite(.macros(["Model": model], indentationWidth: .spaces(4), record: .missing))
struct ModelAccessTests {
    @Test func publicClass() {
        assertMacro {
            """
            @Model public final class Note {
                public var text: String
            }
            """
        } expansion: {
            #"""
            public final class Note {
                @_PersistedProperty
                public var text: String

                @Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Note> = Note.createBackingData()

                public var persistentBackingData: any OpenSwiftData.BackingData<Note> {
                    get {
                        _$backingData
                    }
                    set {
                        _$backingData = newValue
                    }
                }

                public static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "text", keypath: \Note.text, defaultValue: nil, metadata: nil),
                    ]
                }

                public init(backingData: any OpenSwiftData.BackingData<Note>) {
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

            extension Note: nonisolated Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Note's persistentModelID instead")
            extension Note: Sendable {
            }
            """#
        }
    }

    @Test func packageClass() {
        assertMacro {
            """
            @Model package final class Note {
                var text: String
            }
            """
        } expansion: {
            #"""
            package final class Note {
                @_PersistedProperty
                var text: String

                @Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Note> = Note.createBackingData()

                package var persistentBackingData: any OpenSwiftData.BackingData<Note> {
                    get {
                        _$backingData
                    }
                    set {
                        _$backingData = newValue
                    }
                }

                package static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "text", keypath: \Note.text, defaultValue: nil, metadata: nil),
                    ]
                }

                package init(backingData: any OpenSwiftData.BackingData<Note>) {
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

            extension Note: nonisolated Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Note's persistentModelID instead")
            extension Note: Sendable {
            }
            """#
        }
    }

    @Test func openClass() {
        assertMacro {
            """
            @Model open class Note {
                public var text: String
            }
            """
        } expansion: {
            #"""
            open class Note {
                @_PersistedProperty
                public var text: String

                public static func _$keyPaths<_S: Note>(rootedAt root: _S.Type) -> [AnyKeyPath] {
                    [\_S.text]
                }

                open class var _$inheritedKeyPaths: [AnyKeyPath] {
                    []
                }

                @Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Note> = Note.createBackingData()

                open var persistentBackingData: any OpenSwiftData.BackingData<Note> {
                    get {
                        _$backingData
                    }
                    set {
                        _$backingData = newValue
                    }
                }

                open class var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "text", keypath: \Note.text, defaultValue: nil, metadata: nil),
                    ]
                }

                public required init(backingData: any OpenSwiftData.BackingData<Note>) {
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

            extension Note: nonisolated Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Note's persistentModelID instead")
            extension Note: Sendable {
            }
            """#
        }
    }

    @Test func nonFinalClass() {
        assertMacro {
            """
            @Model class Animal {
                var name: String
            }
            """
        } expansion: {
            #"""
            class Animal {
                @_PersistedProperty
                var name: String

                static func _$keyPaths<_S: Animal>(rootedAt root: _S.Type) -> [AnyKeyPath] {
                    [\_S.name]
                }

                class var _$inheritedKeyPaths: [AnyKeyPath] {
                    []
                }

                @Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Animal> = Animal.createBackingData()

                var persistentBackingData: any OpenSwiftData.BackingData<Animal> {
                    get {
                        _$backingData
                    }
                    set {
                        _$backingData = newValue
                    }
                }

                class var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "name", keypath: \Animal.name, defaultValue: nil, metadata: nil),
                    ]
                }

                required init(backingData: any OpenSwiftData.BackingData<Animal>) {
                    _name = _SwiftDataNoType()
                    self.persistentBackingData = backingData
                }

                @Transient
                @exclusivity(unchecked) private nonisolated(unsafe) var _$observationRegistrar = OpenSwiftData.ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Animal, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Animal, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Animal: nonisolated OpenSwiftData.PersistentModel {
            }

            extension Animal: nonisolated Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Animal's persistentModelID instead")
            extension Animal: Sendable {
            }
            """#
        }
    }
}
