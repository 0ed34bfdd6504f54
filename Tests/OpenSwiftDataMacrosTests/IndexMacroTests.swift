import OpenSwiftDataMacros
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite struct IndexMacroTests {
    /// `#Index` (both forms) produces no declarations.
    @Test func expandsToNothing() {
        assertExpansion(
            #"""
            final class Trip {
                #Index<Trip>([\.name], [\.start])
                #Index<Trip>(.binary([\.name]), .rtree([\.latitude, \.longitude]))
                var name: String
            }
            """#,
            expandedSource: #"""
            final class Trip {
                var name: String
            }
            """#,
            macros: only("Index")
        )
    }

    /// `@Model` appends one `Schema.Index` entry per `#Index`, after the properties and in source order.
    @Test func recordedInSchemaMetadata() {
        assertExpansion(
            #"""
            @Model
            final class Place {
                #Index<Place>([\.name], [\.name, \.latitude])
                var name: String
                #Index<Place>(.binary([\.name]), .rtree([\.latitude, \.longitude]))
                var latitude: Double
                var longitude: Double
            }
            """#,
            expandedSource: #"""

            final class Place {
                var name: String {
                    @storageRestrictions(accesses: _$backingData, initializes: _name)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.name, to: initialValue)
                        _name = _SwiftDataNoType()
                    }
                    get {
                        let keyPath = \Place.name
                        _$observationRegistrar.access(self, keyPath: keyPath)
                        return self.getValue(forKey: keyPath)
                    }
                    set {
                        let keyPath = \Place.name
                        _$observationRegistrar.withMutation(of: self, keyPath: keyPath) {
                            self.setValue(forKey: keyPath, to: newValue)
                        }
                    }
                }
                private var _name: _SwiftDataNoType
                var latitude: Double {
                    @storageRestrictions(accesses: _$backingData, initializes: _latitude)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.latitude, to: initialValue)
                        _latitude = _SwiftDataNoType()
                    }
                    get {
                        let keyPath = \Place.latitude
                        _$observationRegistrar.access(self, keyPath: keyPath)
                        return self.getValue(forKey: keyPath)
                    }
                    set {
                        let keyPath = \Place.latitude
                        _$observationRegistrar.withMutation(of: self, keyPath: keyPath) {
                            self.setValue(forKey: keyPath, to: newValue)
                        }
                    }
                }
                private var _latitude: _SwiftDataNoType
                var longitude: Double {
                    @storageRestrictions(accesses: _$backingData, initializes: _longitude)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.longitude, to: initialValue)
                        _longitude = _SwiftDataNoType()
                    }
                    get {
                        let keyPath = \Place.longitude
                        _$observationRegistrar.access(self, keyPath: keyPath)
                        return self.getValue(forKey: keyPath)
                    }
                    set {
                        let keyPath = \Place.longitude
                        _$observationRegistrar.withMutation(of: self, keyPath: keyPath) {
                            self.setValue(forKey: keyPath, to: newValue)
                        }
                    }
                }
                private var _longitude: _SwiftDataNoType
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Place> = Place.createBackingData()

                var persistentBackingData: any OpenSwiftData.BackingData<Place> {
                    get {
                        _$backingData
                    }
                    set {
                        _$backingData = newValue
                    }
                }

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "name", keypath: \Place.name, defaultValue: nil, metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "latitude", keypath: \Place.latitude, defaultValue: nil, metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "longitude", keypath: \Place.longitude, defaultValue: nil, metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "_$index", keypath: \Place.self, defaultValue: nil, metadata: OpenSwiftData.Schema.Index<Place>([\.name], [\.name, \.latitude])),
                        OpenSwiftData.Schema.PropertyMetadata(name: "_$index", keypath: \Place.self, defaultValue: nil, metadata: OpenSwiftData.Schema.Index<Place>(.binary([\.name]), .rtree([\.latitude, \.longitude]))),
                    ]
                }

                init(backingData: any OpenSwiftData.BackingData<Place>) {
                    _name = _SwiftDataNoType()
                    _latitude = _SwiftDataNoType()
                    _longitude = _SwiftDataNoType()
                    self.persistentBackingData = backingData
                }
                @exclusivity(unchecked) private nonisolated(unsafe) var _$observationRegistrar = OpenSwiftData.ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Place, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Place, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Place: nonisolated OpenSwiftData.PersistentModel {
            }

            extension Place: nonisolated Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Place's persistentModelID instead")
            extension Place: Sendable {
            }
            """#
        )
    }

    /// Written where `@Model` cannot read it (a struct, an extension, a function) it warns.
    /// The expansion harness hides a member's enclosing type, so these call the macro directly
    /// with the lexical context the compiler passes.
    @Test(arguments: ["struct Holder", "extension Trip", "enum Holder"])
    func warnsOutsideAClass(container: String) throws {
        let (use, enclosing) = try freestandingUse(#"#Index<Trip>([\.name])"#, in: container)
        let context = BasicMacroExpansionContext(lexicalContext: [enclosing])
        #expect(try IndexMacro.expansion(of: use, in: context).isEmpty)
        #expect(context.diagnostics.map(\.message) == [
            "'#Index' only has an effect inside the body of a @Model class, where '@Model' reads it",
        ])
        #expect(context.diagnostics.map(\.diagMessage.severity) == [.warning])
    }

    /// Directly in a class body (and at file scope, where the context is empty) it is silent.
    @Test func silentInAClassBody() throws {
        let (use, enclosing) = try freestandingUse(#"#Index<Trip>([\.name])"#, in: "final class Trip")
        for lexicalContext in [[enclosing], []] {
            let context = BasicMacroExpansionContext(lexicalContext: lexicalContext)
            #expect(try IndexMacro.expansion(of: use, in: context).isEmpty)
            #expect(context.diagnostics.isEmpty)
        }
    }
}
