import MacroTesting
import OpenSwiftDataMacros
import Testing

/// `#Unique` and `#Index` expand to nothing (`@Model` reads them), and warn where `@Model`
/// cannot read them: anywhere but directly in a class body or at file scope.
@Suite(
    .macros(
        ["Unique": UniqueConstraintsMacro.self, "Index": IndexMacro.self],
        indentationWidth: .spaces(4), record: .missing))
struct UniqueAndIndexMacroTests {
    @Test func uniqueExpandsToNothing() {
        assertMacro {
            #"""
            final class Person {
                #Unique<Person>([\.id], [\.givenName, \.familyName])
                var id: UUID
            }
            """#
        } expansion: {
            """
            final class Person {
                var id: UUID
            }
            """
        }
    }

    @Test func indexExpandsToNothing() {
        assertMacro {
            #"""
            final class Trip {
                #Index<Trip>([\.name], [\.start])
                #Index<Trip>(.binary([\.name]), .rtree([\.latitude, \.longitude]))
                var name: String
            }
            """#
        } expansion: {
            """
            final class Trip {
                var name: String
            }
            """
        }
    }

    @Test func uniqueAtFileScopeIsSilent() {
        assertMacro {
            #"""
            #Unique<Person>([\.id])
            """#
        } expansion: {
            """

            """
        }
    }

    @Test func indexAtFileScopeIsSilent() {
        assertMacro {
            #"""
            #Index<Trip>([\.name])
            """#
        } expansion: {
            """

            """
        }
    }

    @Test func uniqueInAStructWarns() {
        assertMacro {
            #"""
            struct Holder {
                #Unique<Person>([\.id])
            }
            """#
        } diagnostics: {
            #"""
            struct Holder {
                #Unique<Person>([\.id])
                 ┬─────
                 ╰─ ⚠️ '#Unique' only has an effect inside the body of a @Model class, where '@Model' reads it
            }
            """#
        } expansion: {
            """
            struct Holder {
            }
            """
        }
    }

    @Test func uniqueInAnExtensionWarns() {
        assertMacro {
            #"""
            extension Trip {
                #Unique<Person>([\.id])
            }
            """#
        } diagnostics: {
            #"""
            extension Trip {
                #Unique<Person>([\.id])
                 ┬─────
                 ╰─ ⚠️ '#Unique' only has an effect inside the body of a @Model class, where '@Model' reads it
            }
            """#
        } expansion: {
            """
            extension Trip {
            }
            """
        }
    }

    @Test func uniqueInAnEnumWarns() {
        assertMacro {
            #"""
            enum Holder {
                #Unique<Person>([\.id])
            }
            """#
        } diagnostics: {
            #"""
            enum Holder {
                #Unique<Person>([\.id])
                 ┬─────
                 ╰─ ⚠️ '#Unique' only has an effect inside the body of a @Model class, where '@Model' reads it
            }
            """#
        } expansion: {
            """
            enum Holder {
            }
            """
        }
    }

    @Test func indexInAStructWarns() {
        assertMacro {
            #"""
            struct Holder {
                #Index<Trip>([\.name])
            }
            """#
        } diagnostics: {
            #"""
            struct Holder {
                #Index<Trip>([\.name])
                 ┬────
                 ╰─ ⚠️ '#Index' only has an effect inside the body of a @Model class, where '@Model' reads it
            }
            """#
        } expansion: {
            """
            struct Holder {
            }
            """
        }
    }

    @Test func indexInAnExtensionWarns() {
        assertMacro {
            #"""
            extension Trip {
                #Index<Trip>([\.name])
            }
            """#
        } diagnostics: {
            #"""
            extension Trip {
                #Index<Trip>([\.name])
                 ┬────
                 ╰─ ⚠️ '#Index' only has an effect inside the body of a @Model class, where '@Model' reads it
            }
            """#
        } expansion: {
            """
            extension Trip {
            }
            """
        }
    }

    @Test func indexInAnEnumWarns() {
        assertMacro {
            #"""
            enum Holder {
                #Index<Trip>([\.name])
            }
            """#
        } diagnostics: {
            #"""
            enum Holder {
                #Index<Trip>([\.name])
                 ┬────
                 ╰─ ⚠️ '#Index' only has an effect inside the body of a @Model class, where '@Model' reads it
            }
            """#
        } expansion: {
            """
            enum Holder {
            }
            """
        }
    }
}
