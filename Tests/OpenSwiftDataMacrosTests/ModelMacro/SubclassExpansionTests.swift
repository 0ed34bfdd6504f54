import MacroTesting
import OpenSwiftDataMacros
import SwiftSyntaxMacroExpansion
import Testing

/// A subclass of a `@Model` class: the compiler asks for no conformance (it inherits them), so
/// `@Model` gives it its own backing data for the values set before `super.init`, an override of
/// `persistentBackingData` that moves them into the inherited one when first asked, its own
/// properties in an override of `schemaMetadata`, and `init(backingData:)` calling `super`.
@Suite(.macros(["Model": MacroSpec(type: PersistentModelMacro.self, conformances: [])], indentationWidth: .spaces(4), record: .missing))
struct SubclassExpansionTests {
    @Test func subclass() {
        assertMacro {
            """
            @Model class BusinessTrip: Trip {
                var perDiem: Double
                let client: String
                init(name: String, perDiem: Double, client: String) {
                    self.perDiem = perDiem
                    self.client = client
                    super.init(name: name)
                }
            }
            """
        } expansion: {
            #"""
            class BusinessTrip: Trip {
                @_PersistedProperty
                var perDiem: Double
                let client: String
                init(name: String, perDiem: Double, client: String) {
                    self.perDiem = perDiem
                    self.client = client
                    super.init(name: name)
                }

                @Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<BusinessTrip> = BusinessTrip.createBackingData()

                @Transient
                private var _$initialValuesMoved = false

                override var persistentBackingData: any OpenSwiftData.BackingData<Root> {
                    get {
                        if !_$initialValuesMoved {
                            _$initialValuesMoved = true
                            OpenSwiftData._moveSubclassInitialValues(_$backingData, into: super.persistentBackingData, of: self)
                        }
                        return super.persistentBackingData
                    }
                    set {
                        _$initialValuesMoved = true
                        super.persistentBackingData = newValue
                    }
                }

                override class var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "perDiem", keypath: \BusinessTrip.perDiem, defaultValue: nil, metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "client", keypath: \BusinessTrip.client, defaultValue: nil, metadata: nil),
                    ]
                }

                required init(backingData: any OpenSwiftData.BackingData<Root>) {
                    _perDiem = _SwiftDataNoType()
                    self.client = OpenSwiftData._subclassValue(forKey: \BusinessTrip.client, in: backingData)
                    _$initialValuesMoved = true
                    super.init(backingData: backingData)
                }

                @Transient
                @exclusivity(unchecked) private nonisolated(unsafe) var _$observationRegistrar = OpenSwiftData.ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<BusinessTrip, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<BusinessTrip, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }

                static func _$keyPaths<_S: BusinessTrip>(rootedAt root: _S.Type) -> [AnyKeyPath] {
                    Trip._$keyPaths(rootedAt: root) + [\_S.perDiem, \_S.client]
                }

                override class var _$inheritedKeyPaths: [AnyKeyPath] {
                    Trip._$keyPaths(rootedAt: self)
                }
            }
            """#
        }
    }

    /// A class whose first inherited type the compiler does not know as a model gets a member
    /// that compiles only when that type is a protocol: were it a class, it would be one that is
    /// not a `@Model` class, and the error names the rule.
    @Test func aClassInheritingFromANonModelIsFlagged() {
        assertMacro(["Model": MacroSpec(type: ModelMetadataOnlyWithChecks.self, conformances: ["Observable", "PersistentModel", "Sendable"])]) {
            """
            @Model final class Dog: Animal {
                var name: String
            }
            """
        } expansion: {
            """
            final class Dog: Animal {
                var name: String

                private typealias _$aModelClassCanOnlySubclassAModelClass = (any Animal)?
            }
            """
        }
    }
}
