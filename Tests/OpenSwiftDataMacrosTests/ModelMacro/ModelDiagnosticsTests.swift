import MacroTesting
import Testing

/// What `@Model` reports, where, and the fix-its it offers. With an error the compiler stops, so
/// no expansion is recorded: `assertMacro` records the diagnostics, then the source with every
/// fix-it applied and its expansion (through `ModelMetadataOnly`, whose diagnostics are the real
/// macro's); `assertDiagnostics`, for the fix-its `assertMacro` cannot apply, records the
/// diagnostics of the whole `@Model`, then the source with each fix-it applied on its own.
@Suite(.macros(["Model": modelMetadataOnly], indentationWidth: .spaces(4), record: .missing))
struct ModelDiagnosticsTests {
    @Test func structIsRejected() {
        assertDiagnostics(["Model": model]) {
            """
            @Model
            struct Trip {
                var name: String
            }
            """
        } diagnostics: {
            """
            1 | @Model
            2 | struct Trip {
              | `- error: '@Model' can only be applied to a class; make 'Trip' a final class
            3 |     var name: String
            4 | }

            ✏️ replace 'struct' with 'final class'
            @Model
            final class Trip {
                var name: String
            }
            """
        }
    }

    @Test func actorIsRejected() {
        assertDiagnostics(["Model": model]) {
            """
            @Model
            public actor Importer {
                var count: Int = 0
            }
            """
        } diagnostics: {
            """
            1 | @Model
            2 | public actor Importer {
              |        `- error: '@Model' can only be applied to a class; make 'Importer' a final class
            3 |     var count: Int = 0
            4 | }

            ✏️ replace 'actor' with 'final class'
            @Model
            public final class Importer {
                var count: Int = 0
            }
            """
        }
    }

    /// An enum cannot simply become a class: no fix-it.
    @Test func enumIsRejected() {
        assertMacro {
            """
            @Model
            enum Kind {
                case a
            }
            """
        } diagnostics: {
            """
            @Model
            enum Kind {
            ┬───
            ╰─ 🛑 '@Model' can only be applied to a class; make 'Kind' a final class
                case a
            }
            """
        }
    }

    @Test func protocolIsRejected() {
        assertMacro {
            """
            @Model
            protocol Named {
                var name: String { get }
            }
            """
        } diagnostics: {
            """
            @Model
            protocol Named {
            ┬───────
            ╰─ 🛑 '@Model' can only be applied to a class; make 'Named' a final class
                var name: String { get }
            }
            """
        }
    }

    /// A `let` without an initial value is persisted as plain storage: no accessors (Swift
    /// refuses them on a `let`), no `_code` peer, and `init(backingData:)` sets it from the store.
    @Test func letIsPersistedAsPlainStorage() {
        assertMacro {
            """
            @Model final class Trip {
                @Attribute(.unique) let code: String
                var name: String
            }
            """
        } expansion: {
            #"""
            final class Trip {
                @Attribute(.unique) let code: String
                @_PersistedProperty
                var name: String

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "code", keypath: \Trip.code, defaultValue: nil, metadata: OpenSwiftData.Schema.Attribute(.unique)),
                        OpenSwiftData.Schema.PropertyMetadata(name: "name", keypath: \Trip.name, defaultValue: nil, metadata: nil),
                    ]
                }
            }
            """#
        }
    }

    /// A `let` relationship would not follow its model's links.
    @Test func letRelationshipIsRejected() {
        assertMacro {
            """
            @Model final class Trip {
                @Relationship let owner: Person?
            }
            """
        } diagnostics: {
            """
            @Model final class Trip {
                @Relationship let owner: Person?
                              ┬──
                              ╰─ 🛑 'let' property 'owner' cannot be a relationship, which changes as models are linked; use 'var'
                                 ✏️ replace 'let' with 'var'
            }
            """
        } fixes: {
            """
            @Model final class Trip {
                @Relationship var owner: Person?
            }
            """
        } expansion: {
            #"""
            final class Trip {
                @Relationship
                @_PersistedProperty var owner: Person?

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "owner", keypath: \Trip.owner, defaultValue: nil, metadata: OpenSwiftData.Schema.Relationship()),
                    ]
                }
            }
            """#
        }
    }

    /// A `let` with an initial value can also be marked `@Transient`.
    @Test func letWithInitialValueIsRejected() {
        assertDiagnostics(["Model": model]) {
            """
            @Model final class Trip {
                let kind = "trip"
            }
            """
        } diagnostics: {
            """
            1 | @Model final class Trip {
            2 |     let kind = "trip"
              |     `- error: 'let' property 'kind' has an initial value, which a model loaded from the store could not replace with its stored one; use 'var' to persist it, or mark it '@Transient' to keep it out of the store
            3 | }

            ✏️ replace 'let' with 'var'
            @Model final class Trip {
                var kind = "trip"
            }

            ✏️ mark 'kind' '@Transient'
            @Model final class Trip {
                @Transient let kind = "trip"
            }
            """
        }
    }

    @Test func propertyWithNeitherTypeNorInitialValueIsRejected() {
        assertMacro {
            """
            @Model final class Counter {
                var count
            }
            """
        } diagnostics: {
            """
            @Model final class Counter {
                var count
                    ┬────
                    ╰─ 🛑 persisted property 'count' needs a type or an initial value to infer it from (for example 'var count: String' or 'var count = ""')
            }
            """
        }
    }

    /// The fix-it declares each name on its own, keeping the attributes and the shared type.
    @Test func severalNamesInOneVarAreRejected() {
        assertDiagnostics(["Model": model]) {
            """
            @Model final class Point {
                @Attribute(.spotlight) var x, y: Double
            }
            """
        } diagnostics: {
            """
            1 | @Model final class Point {
            2 |     @Attribute(.spotlight) var x, y: Double
              |                                `- error: 'var x, y' declares several properties in one 'var'; @Model needs each persisted property in its own 'var' declaration
            3 | }

            ✏️ declare each property in its own 'var'
            @Model final class Point {
                @Attribute(.spotlight) var x: Double
                @Attribute(.spotlight) var y: Double
            }
            """
        }
    }

    /// A destructuring pattern cannot be split that way: no fix-it.
    @Test func tuplePatternIsRejected() {
        assertMacro {
            """
            @Model final class Point {
                var (u, v): (Int, Int)
            }
            """
        } diagnostics: {
            """
            @Model final class Point {
                var (u, v): (Int, Int)
                    ┬─────────────────
                    ╰─ 🛑 'var (u, v)' declares several properties in one 'var'; @Model needs each persisted property in its own 'var' declaration
            }
            """
        }
    }

    @Test func lazyIsRejected() {
        assertDiagnostics(["Model": model]) {
            """
            @Model final class Node {
                lazy var cache: Int = 1
            }
            """
        } diagnostics: {
            """
            1 | @Model final class Node {
            2 |     lazy var cache: Int = 1
              |     `- error: 'lazy' property 'cache' cannot be persisted; remove 'lazy', or mark the property '@Transient' to keep it as plain storage
            3 | }

            ✏️ remove 'lazy'
            @Model final class Node {
                var cache: Int = 1
            }

            ✏️ mark 'cache' '@Transient'
            @Model final class Node {
                @Transient lazy var cache: Int = 1
            }
            """
        }
    }

    @Test func weakIsRejected() {
        assertDiagnostics(["Model": model]) {
            """
            @Model final class Node {
                weak var parent: Node?
            }
            """
        } diagnostics: {
            """
            1 | @Model final class Node {
            2 |     weak var parent: Node?
              |     `- error: 'weak' property 'parent' cannot be persisted; remove 'weak', or mark the property '@Transient' to keep it as plain storage
            3 | }

            ✏️ remove 'weak'
            @Model final class Node {
                var parent: Node?
            }

            ✏️ mark 'parent' '@Transient'
            @Model final class Node {
                @Transient weak var parent: Node?
            }
            """
        }
    }

    @Test func unownedIsRejected() {
        assertDiagnostics(["Model": model]) {
            """
            @Model final class Node {
                unowned var root: Node
            }
            """
        } diagnostics: {
            """
            1 | @Model final class Node {
            2 |     unowned var root: Node
              |     `- error: 'unowned' property 'root' cannot be persisted; remove 'unowned', or mark the property '@Transient' to keep it as plain storage
            3 | }

            ✏️ remove 'unowned'
            @Model final class Node {
                var root: Node
            }

            ✏️ mark 'root' '@Transient'
            @Model final class Node {
                @Transient unowned var root: Node
            }
            """
        }
    }

    /// `init(backingData:)` does not run the user's init, so a `@Transient` property needs a value.
    @Test func transientWithoutInitialValueIsRejected() {
        assertDiagnostics(["Model": model]) {
            """
            @Model final class Trip {
                @Transient var scratch: Int
            }
            """
        } diagnostics: {
            """
            1 | @Model final class Trip {
            2 |     @Transient var scratch: Int
              |                    `- error: @Transient property 'scratch' needs an initial value: models loaded from a store are created by 'init(backingData:)', which does not run your init; add '= <value>' or make it optional
            3 | }

            ✏️ add an initial value
            @Model final class Trip {
                @Transient var scratch: Int = <#initial value#>
            }
            """
        }
    }

    /// An optional `let` does not start as nil.
    @Test func transientOptionalLetWithoutInitialValueIsRejected() {
        assertDiagnostics(["Model": model]) {
            """
            @Model final class Trip {
                @Transient let tag: String?
            }
            """
        } diagnostics: {
            """
            1 | @Model final class Trip {
            2 |     @Transient let tag: String?
              |                    `- error: @Transient property 'tag' needs an initial value: models loaded from a store are created by 'init(backingData:)', which does not run your init; add '= <value>' or make it optional
            3 | }

            ✏️ add an initial value
            @Model final class Trip {
                @Transient let tag: String? = <#initial value#>
            }
            """
        }
    }

    @Test func transientRelationshipIsRejected() {
        assertMacro {
            """
            @Model final class Stop {
                @Transient @Relationship var trip: Trip? = nil
            }
            """
        } diagnostics: {
            """
            @Model final class Stop {
                @Transient @Relationship var trip: Trip? = nil
                           ┬────────────
                           ╰─ 🛑 'trip' cannot be marked both '@Transient' and '@Relationship'; keep one of them
            }
            """
        }
    }

    @Test func attributeAndRelationshipTogetherAreRejected() {
        assertMacro {
            """
            @Model final class Trip {
                @Attribute(.unique) @Relationship var owner: Person?
            }
            """
        } diagnostics: {
            """
            @Model final class Trip {
                @Attribute(.unique) @Relationship var owner: Person?
                                    ┬────────────
                                    ╰─ 🛑 'owner' cannot be marked both '@Attribute' and '@Relationship'; keep one of them
            }
            """
        }
    }

    /// A stored `var` inside `#if` never reaches the member-attribute role, so it would silently
    /// not be persisted: a warning (none for a `@Transient` one), and the rest expands as usual.
    @Test func propertiesInsideIfConfigWarn() {
        assertMacro {
            """
            @Model final class Trip {
                var name: String
                #if DEBUG
                var debugNote: String = ""
                @Transient var debugCounter = 0
                #elseif os(Linux)
                var linuxOnly: Int?
                #endif
            }
            """
        } diagnostics: {
            """
            @Model final class Trip {
                var name: String
                #if DEBUG
                var debugNote: String = ""
                    ┬────────
                    ╰─ ⚠️ 'debugNote' is inside '#if', where @Model cannot see it, so it is not persisted; declare it outside the '#if' (optional, if some builds don't use it) or mark it '@Transient'
                @Transient var debugCounter = 0
                #elseif os(Linux)
                var linuxOnly: Int?
                    ┬────────
                    ╰─ ⚠️ 'linuxOnly' is inside '#if', where @Model cannot see it, so it is not persisted; declare it outside the '#if' (optional, if some builds don't use it) or mark it '@Transient'
                #endif
            }
            """
        } expansion: {
            #"""
            final class Trip {
                @_PersistedProperty
                var name: String
                #if DEBUG
                var debugNote: String = ""
                @Transient var debugCounter = 0
                #elseif os(Linux)
                var linuxOnly: Int?
                #endif

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "name", keypath: \Trip.name, defaultValue: nil, metadata: nil),
                    ]
                }
            }
            """#
        }
    }
}
