import MacroTesting
import Testing

/// What `@ModelActor` reports. With an error the compiler stops, so no expansion is recorded for
/// the source as written: only its diagnostics and, where every diagnostic has a fix-it, the
/// source with them applied and that source's expansion.
@Suite(.macros(["ModelActor": modelActor], indentationWidth: .spaces(4), record: .missing))
struct ModelActorDiagnosticsTests {
    /// Without an initializer of the user's, a stored property with no initial value cannot be
    /// set by the generated one: an error naming it and saying what to do.
    @Test func storedPropertyWithoutValueNeedsAnInit() {
        assertMacro {
            """
            @ModelActor
            actor Syncer {
                let client: APIClient
                var retries: Int?
            }
            """
        } diagnostics: {
            """
            @ModelActor
            actor Syncer {
                let client: APIClient
                    ┬─────
                    ╰─ 🛑 '@ModelActor' generates 'init(modelContainer:)', which cannot set 'client'; give 'client' an initial value, or write an initializer for 'Syncer' that sets it along with 'modelContainer' and 'modelExecutor'
                var retries: Int?
            }
            """
        }
    }

    @Test func classIsRejected() {
        assertMacro {
            """
            @ModelActor
            final class Importer {
            }
            """
        } diagnostics: {
            """
            @ModelActor
            final class Importer {
                  ┬────
                  ╰─ 🛑 '@ModelActor' can only be applied to an actor; make 'Importer' an actor
                     ✏️ replace 'class' with 'actor'
            }
            """
        } fixes: {
            """
            @ModelActor
            final actor Importer {
            }
            """
        } expansion: {
            """
            final actor Importer {

                nonisolated let modelExecutor: any OpenSwiftData.ModelExecutor

                nonisolated let modelContainer: OpenSwiftData.ModelContainer

                init(modelContainer: OpenSwiftData.ModelContainer) {
                    let modelContext = OpenSwiftData.ModelContext(modelContainer)
                    self.modelExecutor = OpenSwiftData.DefaultSerialModelExecutor(modelContext: modelContext)
                    self.modelContainer = modelContainer
                }
            }

            extension Importer: OpenSwiftData.ModelActor {
            }
            """
        }
    }

    @Test func structIsRejected() {
        assertMacro {
            """
            @ModelActor
            struct Importer {
            }
            """
        } diagnostics: {
            """
            @ModelActor
            struct Importer {
            ┬─────
            ╰─ 🛑 '@ModelActor' can only be applied to an actor; make 'Importer' an actor
               ✏️ replace 'struct' with 'actor'
            }
            """
        } fixes: {
            """
            @ModelActor
            actor Importer {
            }
            """
        } expansion: {
            """
            actor Importer {

                nonisolated let modelExecutor: any OpenSwiftData.ModelExecutor

                nonisolated let modelContainer: OpenSwiftData.ModelContainer

                init(modelContainer: OpenSwiftData.ModelContainer) {
                    let modelContext = OpenSwiftData.ModelContext(modelContainer)
                    self.modelExecutor = OpenSwiftData.DefaultSerialModelExecutor(modelContext: modelContext)
                    self.modelContainer = modelContainer
                }
            }

            extension Importer: OpenSwiftData.ModelActor {
            }
            """
        }
    }

    /// An enum cannot simply become an actor: no fix-it.
    @Test func enumIsRejected() {
        assertMacro {
            """
            @ModelActor
            enum Importer {
            }
            """
        } diagnostics: {
            """
            @ModelActor
            enum Importer {
            ┬───
            ╰─ 🛑 '@ModelActor' can only be applied to an actor; make 'Importer' an actor
            }
            """
        }
    }
}
