import MacroTesting
import OpenSwiftDataMacros
import Testing

/// `@Attribute`, `@Relationship` and `@Transient` are markers `@Model` reads: on their own they
/// expand to nothing.
@Suite(
    .macros(
        [
            "Attribute": AttributePropertyMacro.self,
            "Relationship": RelationshipPropertyMacro.self,
            "Transient": TransientPropertyMacro.self,
        ],
        indentationWidth: .spaces(4), record: .missing))
struct MarkerMacroTests {
    @Test func attribute() {
        assertMacro {
            """
            final class Trip {
                @Attribute(.unique) var code: String
            }
            """
        } expansion: {
            """
            final class Trip {
                var code: String
            }
            """
        }
    }

    @Test func relationship() {
        assertMacro {
            """
            final class Trip {
                @Relationship(deleteRule: .cascade) var stops: [Stop] = []
            }
            """
        } expansion: {
            """
            final class Trip {
                var stops: [Stop] = []
            }
            """
        }
    }

    @Test func transient() {
        assertMacro {
            """
            final class Trip {
                @Transient var scratch = 0
            }
            """
        } expansion: {
            """
            final class Trip {
                var scratch = 0
            }
            """
        }
    }
}
