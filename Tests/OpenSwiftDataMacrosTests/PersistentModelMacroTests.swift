import OpenSwiftDataMacros
import SwiftSyntaxMacrosGenericTestSupport
import SwiftSyntaxMacroExpansion
import Testing

/// `@Model`: member-attribute, member and extension roles, and the diagnostics it reports.
@Suite struct PersistentModelMacroTests {
    /// The brief's Trip example, expanded by every macro as the compiler would.
    @Test func tripExample() {
        assertExpansion(
            #"""
            @Model final class Trip {
                var name: String
                var start: Date = .now
                @Attribute(.unique, originalName: "title") var code: String
                @Relationship(deleteRule: .cascade, inverse: \Stop.trip) var stops: [Stop] = []
                @Transient var scratch = 0
                var notes: String?
            }
            """#,
            expandedSource: #"""
            final class Trip {
                var name: String {
                    @storageRestrictions(accesses: _$backingData, initializes: _name)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.name, to: initialValue)
                        _name = _SwiftDataNoType()
                    }
                    get {
                        let keyPath = \Trip.name
                        _$observationRegistrar.access(self, keyPath: keyPath)
                        return self.getValue(forKey: keyPath)
                    }
                    set {
                        let keyPath = \Trip.name
                        _$observationRegistrar.withMutation(of: self, keyPath: keyPath) {
                            self.setValue(forKey: keyPath, to: newValue)
                        }
                    }
                }
                private var _name: _SwiftDataNoType
                var start: Date {
                    @storageRestrictions(accesses: _$backingData, initializes: _start)
                    init(initialValue) {
                        if !_$backingData._$ignoresInitialValues {
                            _$backingData.setValue(forKey: \.start, to: initialValue)
                        }
                        _start = _SwiftDataNoType()
                    }
                    get {
                        let keyPath = \Trip.start
                        _$observationRegistrar.access(self, keyPath: keyPath)
                        return self.getValue(forKey: keyPath)
                    }
                    set {
                        let keyPath = \Trip.start
                        _$observationRegistrar.withMutation(of: self, keyPath: keyPath) {
                            self.setValue(forKey: keyPath, to: newValue)
                        }
                    }
                }
                private var _start: _SwiftDataNoType
                var code: String {
                    @storageRestrictions(accesses: _$backingData, initializes: _code)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.code, to: initialValue)
                        _code = _SwiftDataNoType()
                    }
                    get {
                        let keyPath = \Trip.code
                        _$observationRegistrar.access(self, keyPath: keyPath)
                        return self.getValue(forKey: keyPath)
                    }
                    set {
                        let keyPath = \Trip.code
                        _$observationRegistrar.withMutation(of: self, keyPath: keyPath) {
                            self.setValue(forKey: keyPath, to: newValue)
                        }
                    }
                }
                private var _code: _SwiftDataNoType
                var stops: [Stop] {
                    @storageRestrictions(accesses: _$backingData, initializes: _stops)
                    init(initialValue) {
                        if !_$backingData._$ignoresInitialValues {
                            _$backingData.setValue(forKey: \.stops, to: initialValue)
                        }
                        _stops = _SwiftDataNoType()
                    }
                    get {
                        let keyPath = \Trip.stops
                        _$observationRegistrar.access(self, keyPath: keyPath)
                        return self.getValue(forKey: keyPath)
                    }
                    set {
                        let keyPath = \Trip.stops
                        _$observationRegistrar.withMutation(of: self, keyPath: keyPath) {
                            self.setValue(forKey: keyPath, to: newValue)
                        }
                    }
                }
                private var _stops: _SwiftDataNoType
                var scratch = 0
                var notes: String? {
                    @storageRestrictions(accesses: _$backingData, initializes: _notes)
                    init(initialValue) {
                        if !_$backingData._$ignoresInitialValues {
                            _$backingData.setValue(forKey: \.notes, to: initialValue)
                        }
                        _notes = _SwiftDataNoType()
                    }
                    get {
                        let keyPath = \Trip.notes
                        _$observationRegistrar.access(self, keyPath: keyPath)
                        return self.getValue(forKey: keyPath)
                    }
                    set {
                        let keyPath = \Trip.notes
                        _$observationRegistrar.withMutation(of: self, keyPath: keyPath) {
                            self.setValue(forKey: keyPath, to: newValue)
                        }
                    }
                }
                private var _notes: _SwiftDataNoType
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
                        OpenSwiftData.Schema.PropertyMetadata(name: "start", keypath: \Trip.start, defaultValue: (.now as Date), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "code", keypath: \Trip.code, defaultValue: nil, metadata: OpenSwiftData.Schema.Attribute(.unique, originalName: "title")),
                        OpenSwiftData.Schema.PropertyMetadata(name: "stops", keypath: \Trip.stops, defaultValue: ([] as [Stop]), metadata: OpenSwiftData.Schema.Relationship(deleteRule: .cascade, inverse: \Stop.trip)),
                        OpenSwiftData.Schema.PropertyMetadata(name: "notes", keypath: \Trip.notes, defaultValue: nil, metadata: nil),
                    ]
                }

                init(backingData: any OpenSwiftData.BackingData<Trip>) {
                    _name = _SwiftDataNoType()
                    _start = _SwiftDataNoType()
                    _code = _SwiftDataNoType()
                    _stops = _SwiftDataNoType()
                    _notes = _SwiftDataNoType()
                    self.persistentBackingData = backingData
                }
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
        )
    }

    /// One property and a user init: the members and extensions every model gets.
    @Test func minimalModel() {
        assertExpansion(
            #"""
            @Model
            final class Note {
                var text: String

                init(text: String) {
                    self.text = text
                }
            }
            """#,
            expandedSource: #"""

            final class Note {
                @_PersistedProperty
                var text: String

                init(text: String) {
                    self.text = text
                }

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

            extension Note: nonisolated Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Note's persistentModelID instead")
            extension Note: Sendable {
            }
            """#,
            macros: only("Model")
        )
    }

    /// Computed, static, class and @Transient members are left alone; functions too.
    @Test func onlyStoredVarsArePersisted() {
        assertExpansion(
            #"""
            @Model
            final class Item {
                var name: String
                var computed: Int { 1 }
                var getSet: Int {
                    get { 1 }
                    set {}
                }
                static var shared = 0
                class var kind: String { "" }
                @Transient var flag = false
                @Transient var cache: [Int]?
                var notes: String?
                func touch() {}
            }
            """#,
            expandedSource: #"""

            final class Item {
                @_PersistedProperty
                var name: String
                var computed: Int { 1 }
                var getSet: Int {
                    get { 1 }
                    set {}
                }
                static var shared = 0
                class var kind: String { "" }
                @Transient var flag = false
                @Transient var cache: [Int]?
                @_PersistedProperty
                var notes: String?
                func touch() {}

                @Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Item> = Item.createBackingData()

                var persistentBackingData: any OpenSwiftData.BackingData<Item> {
                    get {
                        _$backingData
                    }
                    set {
                        _$backingData = newValue
                    }
                }

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "name", keypath: \Item.name, defaultValue: nil, metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "notes", keypath: \Item.notes, defaultValue: nil, metadata: nil),
                    ]
                }

                init(backingData: any OpenSwiftData.BackingData<Item>) {
                    _name = _SwiftDataNoType()
                    _notes = _SwiftDataNoType()
                    self.persistentBackingData = backingData
                }

                @Transient
                @exclusivity(unchecked) private nonisolated(unsafe) var _$observationRegistrar = OpenSwiftData.ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Item, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Item, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Item: nonisolated OpenSwiftData.PersistentModel {
            }

            extension Item: nonisolated Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Item's persistentModelID instead")
            extension Item: Sendable {
            }
            """#,
            macros: only("Model")
        )
    }

    /// Each initializer is recorded as `(expression as Type)`; `T!` is cast as `T?`; no initializer is `nil`.
    @Test func defaultValuesOfEachKind() {
        assertExpansion(
            #"""
            @Model
            final class Defaults {
                var start: Date = .now
                var count: Int = 0
                var offset: Int = -1
                var title: String = "Untitled"
                var tags: [String] = []
                var scores: [String: Int] = [:]
                var id: UUID = UUID()
                var pi: Double = Double.pi
                var nothing: String? = nil
                var maybe: String? = "x"
                var forced: Int! = 3
                var absent: String?
                var `default`: Bool = true
            }
            """#,
            expandedSource: #"""

            final class Defaults {
                @_PersistedProperty
                var start: Date = .now
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
                @_PersistedProperty
                var nothing: String? = nil
                @_PersistedProperty
                var maybe: String? = "x"
                @_PersistedProperty
                var forced: Int! = 3
                @_PersistedProperty
                var absent: String?
                @_PersistedProperty
                var `default`: Bool = true

                @Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Defaults> = Defaults.createBackingData()

                var persistentBackingData: any OpenSwiftData.BackingData<Defaults> {
                    get {
                        _$backingData
                    }
                    set {
                        _$backingData = newValue
                    }
                }

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "start", keypath: \Defaults.start, defaultValue: (.now as Date), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "count", keypath: \Defaults.count, defaultValue: (0 as Int), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "offset", keypath: \Defaults.offset, defaultValue: (-1 as Int), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "title", keypath: \Defaults.title, defaultValue: ("Untitled" as String), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "tags", keypath: \Defaults.tags, defaultValue: ([] as [String]), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "scores", keypath: \Defaults.scores, defaultValue: ([:] as [String: Int]), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "id", keypath: \Defaults.id, defaultValue: (UUID() as UUID), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "pi", keypath: \Defaults.pi, defaultValue: (Double.pi as Double), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "nothing", keypath: \Defaults.nothing, defaultValue: (nil as String?), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "maybe", keypath: \Defaults.maybe, defaultValue: ("x" as String?), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "forced", keypath: \Defaults.forced, defaultValue: (3 as Int?), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "absent", keypath: \Defaults.absent, defaultValue: nil, metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "default", keypath: \Defaults.`default`, defaultValue: (true as Bool), metadata: nil),
                    ]
                }

                init(backingData: any OpenSwiftData.BackingData<Defaults>) {
                    _start = _SwiftDataNoType()
                    _count = _SwiftDataNoType()
                    _offset = _SwiftDataNoType()
                    _title = _SwiftDataNoType()
                    _tags = _SwiftDataNoType()
                    _scores = _SwiftDataNoType()
                    _id = _SwiftDataNoType()
                    _pi = _SwiftDataNoType()
                    _nothing = _SwiftDataNoType()
                    _maybe = _SwiftDataNoType()
                    _forced = _SwiftDataNoType()
                    _absent = _SwiftDataNoType()
                    _default = _SwiftDataNoType()
                    self.persistentBackingData = backingData
                }

                @Transient
                @exclusivity(unchecked) private nonisolated(unsafe) var _$observationRegistrar = OpenSwiftData.ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Defaults, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Defaults, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Defaults: nonisolated OpenSwiftData.PersistentModel {
            }

            extension Defaults: nonisolated Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Defaults's persistentModelID instead")
            extension Defaults: Sendable {
            }
            """#,
            macros: only("Model")
        )
    }

    /// A model with nothing to persist still gets every member; its metadata is empty.
    @Test func noPersistedProperties() {
        assertExpansion(
            #"""
            @Model
            final class Empty {
                init() {}
            }
            """#,
            expandedSource: #"""

            final class Empty {
                init() {}

                @Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Empty> = Empty.createBackingData()

                var persistentBackingData: any OpenSwiftData.BackingData<Empty> {
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

                init(backingData: any OpenSwiftData.BackingData<Empty>) {
                    self.persistentBackingData = backingData
                }

                @Transient
                @exclusivity(unchecked) private nonisolated(unsafe) var _$observationRegistrar = OpenSwiftData.ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Empty, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Empty, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Empty: nonisolated OpenSwiftData.PersistentModel {
            }

            extension Empty: nonisolated Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Empty's persistentModelID instead")
            extension Empty: Sendable {
            }
            """#,
            macros: only("Model")
        )
    }

    /// Members that satisfy `PersistentModel` are `public` in a public class.
    @Test func publicClass() {
        assertExpansion(
            #"""
            @Model
            public final class Note {
                public var text: String
            }
            """#,
            expandedSource: #"""

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
            """#,
            macros: only("Model")
        )
    }

    /// An open class gets public members and a `required` init.
    @Test func openClass() {
        assertExpansion(
            #"""
            @Model
            open class Note {
                public var text: String
            }
            """#,
            expandedSource: #"""

            open class Note {
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
            """#,
            macros: only("Model")
        )
    }

    /// A non-final class gets `required init(backingData:)`, so subclasses and `M.init(backingData:)` work.
    @Test func nonFinalClass() {
        assertExpansion(
            #"""
            @Model
            class Animal {
                var name: String
            }
            """#,
            expandedSource: #"""

            class Animal {
                @_PersistedProperty
                var name: String

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

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
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
            """#,
            macros: only("Model")
        )
    }

    /// A package class gets package members.
    @Test func packageClass() {
        assertExpansion(
            #"""
            @Model
            package final class Note {
                var text: String
            }
            """#,
            expandedSource: #"""

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
            """#,
            macros: only("Model")
        )
    }

    /// A model nested in a namespace (as versioned schemas are) is extended by its qualified name.
    @Test func nestedModel() {
        assertExpansion(
            #"""
            enum SchemaV1 {
                @Model
                final class Film {
                    var title: String
                }
            }
            """#,
            expandedSource: #"""
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
            """#,
            macros: only("Model")
        )
    }

    /// A struct is rejected, with a fix-it that makes it a final class.
    @Test func structIsRejected() {
        assertExpansion(
            #"""
            @Model
            struct Trip {
                var name: String
            }
            """#,
            expandedSource: #"""

            struct Trip {
                var name: String
            }
            """#,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Model' can only be applied to a class; make 'Trip' a final class",
                    line: 2,
                    column: 1,
                    fixIts: [FixItSpec(message: "replace 'struct' with 'final class'")]
                ),
            ],
            macros: only("Model"),
            applyFixIts: ["replace 'struct' with 'final class'"],
            fixedSource: #"""
            @Model
            final class Trip {
                var name: String
            }
            """#
        )
    }

    /// An actor is rejected, with the same fix-it.
    @Test func actorIsRejected() {
        assertExpansion(
            #"""
            @Model
            public actor Importer {
                var count: Int = 0
            }
            """#,
            expandedSource: #"""

            public actor Importer {
                var count: Int = 0
            }
            """#,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Model' can only be applied to a class; make 'Importer' a final class",
                    line: 2,
                    column: 8,
                    fixIts: [FixItSpec(message: "replace 'actor' with 'final class'")]
                ),
            ],
            macros: only("Model"),
            applyFixIts: ["replace 'actor' with 'final class'"],
            fixedSource: #"""
            @Model
            public final class Importer {
                var count: Int = 0
            }
            """#
        )
    }

    /// An enum is rejected (no fix-it: it cannot simply become a class).
    @Test func enumIsRejected() {
        assertExpansion(
            #"""
            @Model
            enum Kind {
                case a
            }
            """#,
            expandedSource: #"""

            enum Kind {
                case a
            }
            """#,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Model' can only be applied to a class; make 'Kind' a final class",
                    line: 2,
                    column: 1
                ),
            ],
            macros: only("Model")
        )
    }

    /// A protocol is rejected.
    @Test func protocolIsRejected() {
        assertExpansion(
            #"""
            @Model
            protocol Named {
                var name: String { get }
            }
            """#,
            expandedSource: #"""

            protocol Named {
                var name: String { get }
            }
            """#,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@Model' can only be applied to a class; make 'Named' a final class",
                    line: 2,
                    column: 1
                ),
            ],
            macros: only("Model")
        )
    }

    /// A stored `let` is not persisted; the fix-its make it a `var` or mark it `@Transient`.
    @Test func letPropertyIsRejected() {
        assertExpansion(
            #"""
            @Model
            final class Trip {
                let code: String
                let kind = "trip"
            }
            """#,
            expandedSource: #"""

            final class Trip {
                let code: String
                let kind = "trip"

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
                    message: "'let' properties of a @Model class are not persisted; use 'var' to persist 'code', or mark it '@Transient' and give it an initial value to keep it out of the store",
                    line: 3,
                    column: 5,
                    fixIts: [FixItSpec(message: "replace 'let' with 'var'")]
                ),
                DiagnosticSpec(
                    message: "'let' properties of a @Model class are not persisted; use 'var' to persist 'kind', or mark it '@Transient' and give it an initial value to keep it out of the store",
                    line: 4,
                    column: 5,
                    fixIts: [FixItSpec(message: "replace 'let' with 'var'"), FixItSpec(message: "mark 'kind' '@Transient'")]
                ),
            ],
            macros: only("Model"),
            applyFixIts: ["replace 'let' with 'var'"],
            fixedSource: #"""
            @Model
            final class Trip {
                var code: String
                var kind = "trip"
            }
            """#
        )
    }

    /// A `let` with an initial value can instead be kept out of the store.
    @Test func letWithInitialValueCanBecomeTransient() {
        assertExpansion(
            #"""
            @Model
            final class Trip {
                let kind = "trip"
            }
            """#,
            expandedSource: #"""

            final class Trip {
                let kind = "trip"

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
                    message: "'let' properties of a @Model class are not persisted; use 'var' to persist 'kind', or mark it '@Transient' and give it an initial value to keep it out of the store",
                    line: 3,
                    column: 5,
                    fixIts: [FixItSpec(message: "replace 'let' with 'var'"), FixItSpec(message: "mark 'kind' '@Transient'")]
                ),
            ],
            macros: only("Model"),
            applyFixIts: ["mark 'kind' '@Transient'"],
            fixedSource: #"""
            @Model
            final class Trip {
                @Transient let kind = "trip"
            }
            """#
        )
    }

    /// A persisted `var` needs a type; when the initial value makes it certain, a fix-it adds it.
    @Test func typesInferredFromInitialValuesNeedNoAnnotation() {
        assertExpansion(
            #"""
            @Model
            final class Counter {
                var count = 0
                var tags = [String]()
            }
            """#,
            expandedSource: #"""
            final class Counter {
                @_PersistedProperty
                var count = 0
                @_PersistedProperty
                var tags = [String]()

                @Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Counter> = Counter.createBackingData()

                var persistentBackingData: any OpenSwiftData.BackingData<Counter> {
                    get {
                        _$backingData
                    }
                    set {
                        _$backingData = newValue
                    }
                }

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "count", keypath: \Counter.count, defaultValue: (0), metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "tags", keypath: \Counter.tags, defaultValue: ([String]()), metadata: nil),
                    ]
                }

                init(backingData: any OpenSwiftData.BackingData<Counter>) {
                    _count = _SwiftDataNoType()
                    _tags = _SwiftDataNoType()
                    self.persistentBackingData = backingData
                }

                @Transient
                @exclusivity(unchecked) private nonisolated(unsafe) var _$observationRegistrar = OpenSwiftData.ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Counter, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Counter, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Counter: nonisolated OpenSwiftData.PersistentModel {
            }

            extension Counter: nonisolated Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Counter's persistentModelID instead")
            extension Counter: Sendable {
            }
            """#,
            macros: only("Model"))
    }

    @Test func aPropertyWithNeitherTypeNorInitialValueIsRejected() {
        assertExpansion(
            #"""
            @Model
            final class Counter {
                var count
            }
            """#,
            expandedSource: #"""
            final class Counter {
                var count

                @Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Counter> = Counter.createBackingData()

                var persistentBackingData: any OpenSwiftData.BackingData<Counter> {
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

                init(backingData: any OpenSwiftData.BackingData<Counter>) {
                    self.persistentBackingData = backingData
                }

                @Transient
                @exclusivity(unchecked) private nonisolated(unsafe) var _$observationRegistrar = OpenSwiftData.ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Counter, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Counter, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Counter: nonisolated OpenSwiftData.PersistentModel {
            }

            extension Counter: nonisolated Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Counter's persistentModelID instead")
            extension Counter: Sendable {
            }
            """#,
            diagnostics: [
                DiagnosticSpec(
                    message: "persisted property 'count' needs a type or an initial value to infer it from (for example 'var count: String' or 'var count = \"\"')",
                    line: 3,
                    column: 9
                ),
            ],
            macros: only("Model"))
    }

    @Test func multipleBindingsAreRejected() {
        assertExpansion(
            #"""
            @Model
            final class Point {
                @Attribute(.spotlight) var x, y: Double
                var (u, v): (Int, Int)
            }
            """#,
            expandedSource: #"""

            final class Point {
                @Attribute(.spotlight) var x, y: Double
                var (u, v): (Int, Int)

                @Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Point> = Point.createBackingData()

                var persistentBackingData: any OpenSwiftData.BackingData<Point> {
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

                init(backingData: any OpenSwiftData.BackingData<Point>) {
                    self.persistentBackingData = backingData
                }

                @Transient
                @exclusivity(unchecked) private nonisolated(unsafe) var _$observationRegistrar = OpenSwiftData.ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Point, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Point, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Point: nonisolated OpenSwiftData.PersistentModel {
            }

            extension Point: nonisolated Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Point's persistentModelID instead")
            extension Point: Sendable {
            }
            """#,
            diagnostics: [
                DiagnosticSpec(
                    message: "'var x, y' declares several properties in one 'var'; @Model needs each persisted property in its own 'var' declaration",
                    line: 3,
                    column: 32,
                    fixIts: [FixItSpec(message: "declare each property in its own 'var'")]
                ),
                DiagnosticSpec(
                    message: "'var (u, v)' declares several properties in one 'var'; @Model needs each persisted property in its own 'var' declaration",
                    line: 4,
                    column: 9
                ),
            ],
            macros: only("Model"),
            applyFixIts: ["declare each property in its own 'var'"],
            fixedSource: #"""
            @Model
            final class Point {
                @Attribute(.spotlight) var x: Double
                @Attribute(.spotlight) var y: Double
                var (u, v): (Int, Int)
            }
            """#
        )
    }

    /// `lazy`, `weak` and `unowned` need real storage; the fix-its remove the modifier or mark the property `@Transient`.
    @Test func lazyAndWeakAreRejected() {
        assertExpansion(
            #"""
            @Model
            final class Node {
                lazy var cache: Int = 1
                weak var parent: Node?
                unowned var root: Node
            }
            """#,
            expandedSource: #"""

            final class Node {
                lazy var cache: Int = 1
                weak var parent: Node?
                unowned var root: Node

                @Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Node> = Node.createBackingData()

                var persistentBackingData: any OpenSwiftData.BackingData<Node> {
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

                init(backingData: any OpenSwiftData.BackingData<Node>) {
                    self.persistentBackingData = backingData
                }

                @Transient
                @exclusivity(unchecked) private nonisolated(unsafe) var _$observationRegistrar = OpenSwiftData.ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Node, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Node, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Node: nonisolated OpenSwiftData.PersistentModel {
            }

            extension Node: nonisolated Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Node's persistentModelID instead")
            extension Node: Sendable {
            }
            """#,
            diagnostics: [
                DiagnosticSpec(
                    message: "'lazy' property 'cache' cannot be persisted; remove 'lazy', or mark the property '@Transient' to keep it as plain storage",
                    line: 3,
                    column: 5,
                    fixIts: [FixItSpec(message: "remove 'lazy'"), FixItSpec(message: "mark 'cache' '@Transient'")]
                ),
                DiagnosticSpec(
                    message: "'weak' property 'parent' cannot be persisted; remove 'weak', or mark the property '@Transient' to keep it as plain storage",
                    line: 4,
                    column: 5,
                    fixIts: [FixItSpec(message: "remove 'weak'"), FixItSpec(message: "mark 'parent' '@Transient'")]
                ),
                DiagnosticSpec(
                    message: "'unowned' property 'root' cannot be persisted; remove 'unowned', or mark the property '@Transient' to keep it as plain storage",
                    line: 5,
                    column: 5,
                    fixIts: [FixItSpec(message: "remove 'unowned'"), FixItSpec(message: "mark 'root' '@Transient'")]
                ),
            ],
            macros: only("Model"),
            applyFixIts: ["remove 'lazy'", "mark 'parent' '@Transient'"],
            fixedSource: #"""
            @Model
            final class Node {
                var cache: Int = 1
                @Transient weak var parent: Node?
                unowned var root: Node
            }
            """#
        )
    }

    /// `didSet`/`willSet` cannot coexist with the generated accessors.
    @Test func propertyObserversAreRejected() {
        assertExpansion(
            #"""
            @Model
            final class Counter {
                var count: Int = 0 {
                    didSet { print(count) }
                }
            }
            """#,
            expandedSource: #"""

            final class Counter {
                var count: Int = 0 {
                    didSet { print(count) }
                }

                @Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Counter> = Counter.createBackingData()

                var persistentBackingData: any OpenSwiftData.BackingData<Counter> {
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

                init(backingData: any OpenSwiftData.BackingData<Counter>) {
                    self.persistentBackingData = backingData
                }

                @Transient
                @exclusivity(unchecked) private nonisolated(unsafe) var _$observationRegistrar = OpenSwiftData.ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Counter, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Counter, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Counter: nonisolated OpenSwiftData.PersistentModel {
            }

            extension Counter: nonisolated Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Counter's persistentModelID instead")
            extension Counter: Sendable {
            }
            """#,
            diagnostics: [
                DiagnosticSpec(
                    message: "persisted property 'count' cannot have a 'didSet' observer, because @Model replaces its storage with accessors; observe changes with Observation instead, or mark the property '@Transient'",
                    line: 4,
                    column: 9,
                    fixIts: [FixItSpec(message: "mark 'count' '@Transient'")]
                ),
            ],
            macros: only("Model"),
            applyFixIts: ["mark 'count' '@Transient'"],
            fixedSource: #"""
            @Model
            final class Counter {
                @Transient var count: Int = 0 {
                    didSet { print(count) }
                }
            }
            """#
        )
    }

    /// A stored `var` inside `#if` never reaches @Model's member-attribute role, so it would silently not be persisted: warn.
    @Test func propertiesInsideIfConfigWarn() {
        assertExpansion(
            #"""
            @Model
            final class Trip {
                var name: String
                #if DEBUG
                var debugNote: String = ""
                @Transient var debugCounter = 0
                #elseif os(Linux)
                var linuxOnly: Int?
                #endif
            }
            """#,
            expandedSource: #"""

            final class Trip {
                @_PersistedProperty
                var name: String
                #if DEBUG
                var debugNote: String = ""
                @Transient var debugCounter = 0
                #elseif os(Linux)
                var linuxOnly: Int?
                #endif

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
            diagnostics: [
                DiagnosticSpec(
                    message: "'debugNote' is inside '#if', where @Model cannot see it, so it is not persisted; declare it outside the '#if' (optional, if some builds don't use it) or mark it '@Transient'",
                    line: 5,
                    column: 9,
                    severity: .warning
                ),
                DiagnosticSpec(
                    message: "'linuxOnly' is inside '#if', where @Model cannot see it, so it is not persisted; declare it outside the '#if' (optional, if some builds don't use it) or mark it '@Transient'",
                    line: 8,
                    column: 9,
                    severity: .warning
                ),
            ],
            macros: only("Model")
        )
    }

    /// When the class already conforms to `Observable`, only the missing conformances are added.
    @Test func extensionRoleAddsOnlyRequestedConformances() {
        assertExpansion(
            #"""
            @Model
            final class Note: Observable {
            }
            """#,
            expandedSource: #"""

            final class Note: Observable {

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
                    return []
                }

                init(backingData: any OpenSwiftData.BackingData<Note>) {
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
            """#,
            macros: ["Model": MacroSpec(type: PersistentModelMacro.self, conformances: ["PersistentModel", "Sendable"])]
        )
    }
}
