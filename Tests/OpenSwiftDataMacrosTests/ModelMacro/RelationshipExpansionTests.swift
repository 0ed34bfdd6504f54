import MacroTesting
import Testing

/// `@Relationship` arguments reach `schemaMetadata` as `Schema.Relationship(...)`.
@Suite(.macros(["Model": modelMetadataOnly], indentationWidth: .spaces(4), record: .missing))
struct RelationshipExpansionTests {
    /// A to-one relationship with no arguments.
    @Test func toOne() {
        assertMacro {
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

    /// A to-many relationship with a delete rule, an inverse and an initial value.
    @Test func toManyWithDeleteRuleAndInverse() {
        assertMacro {
            #"""
            @Model final class Trip {
                @Relationship(deleteRule: .cascade, inverse: \Stop.trip) var stops: [Stop] = []
            }
            """#
        } expansion: {
            #"""
            final class Trip {
                @Relationship(deleteRule: .cascade, inverse: \Stop.trip)
                @_PersistedProperty var stops: [Stop] = []

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "stops", keypath: \Trip.stops, defaultValue: ([] as [Stop]), metadata: OpenSwiftData.Schema.Relationship(deleteRule: .cascade, inverse: \Stop.trip)),
                    ]
                }
            }
            """#
        }
    }

    /// Every argument is recorded as written, in order.
    @Test func everyArgument() {
        assertMacro {
            """
            @Model final class Trip {
                @Relationship(.unique, deleteRule: .deny, minimumModelCount: 1, maximumModelCount: 3, originalName: "guides", hashModifier: "h") var guides: [Person]?
            }
            """
        } expansion: {
            #"""
            final class Trip {
                @Relationship(.unique, deleteRule: .deny, minimumModelCount: 1, maximumModelCount: 3, originalName: "guides", hashModifier: "h")
                @_PersistedProperty var guides: [Person]?

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "guides", keypath: \Trip.guides, defaultValue: nil, metadata: OpenSwiftData.Schema.Relationship(.unique, deleteRule: .deny, minimumModelCount: 1, maximumModelCount: 3, originalName: "guides", hashModifier: "h")),
                    ]
                }
            }
            """#
        }
    }

    /// `inverse: nil` written out means one-way, which an omitted argument cannot say: it is
    /// wrapped in `_explicitlyUnidirectional`.
    @Test func explicitNilInverse() {
        assertMacro {
            """
            @Model final class Stop {
                @Relationship(inverse: nil) var photo: Photo?
            }
            """
        } expansion: {
            #"""
            final class Stop {
                @Relationship(inverse: nil)
                @_PersistedProperty var photo: Photo?

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "photo", keypath: \Stop.photo, defaultValue: nil, metadata: OpenSwiftData.Schema.Relationship._explicitlyUnidirectional(OpenSwiftData.Schema.Relationship())),
                    ]
                }
            }
            """#
        }
    }

    /// The other arguments stay inside the wrapped relationship.
    @Test func explicitNilInverseWithOtherArguments() {
        assertMacro {
            """
            @Model final class Stop {
                @Relationship(deleteRule: .cascade, inverse: nil, originalName: "image") var cover: Photo?
            }
            """
        } expansion: {
            #"""
            final class Stop {
                @Relationship(deleteRule: .cascade, inverse: nil, originalName: "image")
                @_PersistedProperty var cover: Photo?

                static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
                    return [
                        OpenSwiftData.Schema.PropertyMetadata(name: "cover", keypath: \Stop.cover, defaultValue: nil, metadata: OpenSwiftData.Schema.Relationship._explicitlyUnidirectional(OpenSwiftData.Schema.Relationship(deleteRule: .cascade, originalName: "image"))),
                    ]
                }
            }
            """#
        }
    }
}
