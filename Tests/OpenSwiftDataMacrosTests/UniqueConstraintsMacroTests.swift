import OpenSwiftDataMacros
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite struct UniqueConstraintsMacroTests {
    /// `#Unique` itself produces no declarations.
    @Test func expandsToNothing() {
        assertExpansion(
            #"""
            final class Person {
                #Unique<Person>([\.id], [\.givenName, \.familyName])
                var id: UUID
            }
            """#,
            expandedSource: #"""
            final class Person {
                var id: UUID
            }
            """#,
            macros: only("Unique")
        )
    }

    /// `@Model` reads the `#Unique` in its body and appends one entry per use, after the properties.
    @Test func recordedInSchemaMetadata() {
        assertExpansion(
            #"""
            @Model
            final class Person {
                #Unique<Person>([\.id], [\.givenName, \.familyName])
                var id: UUID
                var givenName: String
                var familyName: String
            }
            """#,
            expandedSource: #"""

            final class Person {
                @_PersistedProperty
                var id: UUID
                @_PersistedProperty
                var givenName: String
                @_PersistedProperty
                var familyName: String

                @Transient
                @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<Person> = Person.createBackingData()

                var persistentBackingData: any OpenSwiftData.BackingData<Person> {
                    get {
                        _$backingData
                    }
                    set {
                        _$backingData = newValue
                    }
                }

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "id", keypath: \Person.id, defaultValue: nil, metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "givenName", keypath: \Person.givenName, defaultValue: nil, metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "familyName", keypath: \Person.familyName, defaultValue: nil, metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "_$unique", keypath: \Person.self, defaultValue: nil, metadata: OpenSwiftData.Schema.Unique<Person>([\.id], [\.givenName, \.familyName])),
                    ]
                }

                init(backingData: any OpenSwiftData.BackingData<Person>) {
                    _id = _SwiftDataNoType()
                    _givenName = _SwiftDataNoType()
                    _familyName = _SwiftDataNoType()
                    self.persistentBackingData = backingData
                }

                @Transient
                @exclusivity(unchecked) private nonisolated(unsafe) var _$observationRegistrar = OpenSwiftData.ModelObservationRegistrar()

                internal nonisolated func access<_M>(keyPath: KeyPath<Person, _M>) {
                    _$observationRegistrar.access(self, keyPath: keyPath)
                }

                internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<Person, _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                    try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
                }

                struct _SwiftDataNoType {
                }
            }

            extension Person: nonisolated OpenSwiftData.PersistentModel {
            }

            extension Person: nonisolated Observation.Observable {
            }

            @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use Person's persistentModelID instead")
            extension Person: Sendable {
            }
            """#,
            macros: only("Model", "Unique")
        )
    }

    /// Written where `@Model` cannot read it (a struct, an extension, a function) it warns.
    /// The expansion harness hides a member's enclosing type, so these call the macro directly
    /// with the lexical context the compiler passes.
    @Test(arguments: ["struct Holder", "extension Trip", "enum Holder"])
    func warnsOutsideAClass(container: String) throws {
        let (use, enclosing) = try freestandingUse(#"#Unique<Person>([\.id])"#, in: container)
        let context = BasicMacroExpansionContext(lexicalContext: [enclosing])
        #expect(try UniqueConstraintsMacro.expansion(of: use, in: context).isEmpty)
        #expect(context.diagnostics.map(\.message) == [
            "'#Unique' only has an effect inside the body of a @Model class, where '@Model' reads it",
        ])
        #expect(context.diagnostics.map(\.diagMessage.severity) == [.warning])
    }

    /// Directly in a class body (and at file scope, where the context is empty) it is silent.
    @Test func silentInAClassBody() throws {
        let (use, enclosing) = try freestandingUse(#"#Unique<Person>([\.id])"#, in: "final class Trip")
        for lexicalContext in [[enclosing], []] {
            let context = BasicMacroExpansionContext(lexicalContext: lexicalContext)
            #expect(try UniqueConstraintsMacro.expansion(of: use, in: context).isEmpty)
            #expect(context.diagnostics.isEmpty)
        }
    }
}
