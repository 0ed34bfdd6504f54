import MacroTesting
import OpenSwiftDataMacros
import SwiftSyntaxMacroExpansion
import Testing

/// `@Model` reads the `#Unique` and `#Index` in its body and appends one entry per use to
/// `schemaMetadata`, after the properties.
@Suite(
    .macros(
        ["Model": modelMetadataOnly, "Unique": MacroSpec(type: UniqueConstraintsMacro.self), "Index": MacroSpec(type: IndexMacro.self)],
        indentationWidth: .spaces(4), record: .missing))
struct SchemaConstraintExpansionTests {
    @Test func uniqueConstraint() {
        assertMacro {
            #"""
            @Model final class Person {
                #Unique<Person>([\.id], [\.givenName, \.familyName])
                var id: UUID
                var givenName: String
                var familyName: String
            }
            """#
        } expansion: {
            #"""
            final class Person {
                @_PersistedProperty
                var id: UUID
                @_PersistedProperty
                var givenName: String
                @_PersistedProperty
                var familyName: String

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "id", keypath: \Person.id, defaultValue: nil, metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "givenName", keypath: \Person.givenName, defaultValue: nil, metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "familyName", keypath: \Person.familyName, defaultValue: nil, metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "_$unique", keypath: \Person.self, defaultValue: nil, metadata: OpenSwiftData.Schema.Unique<Person>([\.id], [\.givenName, \.familyName])),
                    ]
                }
            }
            """#
        }
    }

    /// Both forms of `#Index`, each recorded in source order.
    @Test func indexes() {
        assertMacro {
            #"""
            @Model final class Place {
                #Index<Place>([\.name], [\.name, \.latitude])
                var name: String
                #Index<Place>(.binary([\.name]), .rtree([\.latitude, \.longitude]))
                var latitude: Double
                var longitude: Double
            }
            """#
        } expansion: {
            #"""
            final class Place {
                @_PersistedProperty
                var name: String
                @_PersistedProperty
                var latitude: Double
                @_PersistedProperty
                var longitude: Double

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "name", keypath: \Place.name, defaultValue: nil, metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "latitude", keypath: \Place.latitude, defaultValue: nil, metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "longitude", keypath: \Place.longitude, defaultValue: nil, metadata: nil),
                        OpenSwiftData.Schema.PropertyMetadata(name: "_$index", keypath: \Place.self, defaultValue: nil, metadata: OpenSwiftData.Schema.Index<Place>([\.name], [\.name, \.latitude])),
                        OpenSwiftData.Schema.PropertyMetadata(name: "_$index", keypath: \Place.self, defaultValue: nil, metadata: OpenSwiftData.Schema.Index<Place>(.binary([\.name]), .rtree([\.latitude, \.longitude]))),
                    ]
                }
            }
            """#
        }
    }
}
