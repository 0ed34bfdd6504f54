import MacroTesting
import OpenSwiftDataMacros
import SwiftSyntaxMacroExpansion
import Testing

/// `@ModelActor`: the two nonisolated properties, `init(modelContainer:)` creating a context and
/// a serial executor over it, and the conformance.
@Suite(.macros(["ModelActor": modelActor], indentationWidth: .spaces(4), record: .missing))
struct ModelActorMacroTests {
    @Test func emptyActor() {
        assertMacro {
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

    @Test func publicActor() {
        assertMacro {
            """
            @ModelActor
            public actor Store {
            }
            """
        } expansion: {
            """
            public actor Store {

                public nonisolated let modelExecutor: any OpenSwiftData.ModelExecutor

                public nonisolated let modelContainer: OpenSwiftData.ModelContainer

                public init(modelContainer: OpenSwiftData.ModelContainer) {
                    let modelContext = OpenSwiftData.ModelContext(modelContainer)
                    self.modelExecutor = OpenSwiftData.DefaultSerialModelExecutor(modelContext: modelContext)
                    self.modelContainer = modelContainer
                }
            }

            extension Store: OpenSwiftData.ModelActor {
            }
            """
        }
    }

    @Test func packageActor() {
        assertMacro {
            """
            @ModelActor
            package actor Store {
            }
            """
        } expansion: {
            """
            package actor Store {

                package nonisolated let modelExecutor: any OpenSwiftData.ModelExecutor

                package nonisolated let modelContainer: OpenSwiftData.ModelContainer

                package init(modelContainer: OpenSwiftData.ModelContainer) {
                    let modelContext = OpenSwiftData.ModelContext(modelContainer)
                    self.modelExecutor = OpenSwiftData.DefaultSerialModelExecutor(modelContext: modelContext)
                    self.modelContainer = modelContainer
                }
            }

            extension Store: OpenSwiftData.ModelActor {
            }
            """
        }
    }

    /// A nested actor's conformance names it fully.
    @Test func nestedActor() {
        assertMacro {
            """
            enum Persistence {
                @ModelActor
                actor Progress {
                }
            }
            """
        } expansion: {
            """
            enum Persistence {
                actor Progress {

                    nonisolated let modelExecutor: any OpenSwiftData.ModelExecutor

                    nonisolated let modelContainer: OpenSwiftData.ModelContainer

                    init(modelContainer: OpenSwiftData.ModelContainer) {
                        let modelContext = OpenSwiftData.ModelContext(modelContainer)
                        self.modelExecutor = OpenSwiftData.DefaultSerialModelExecutor(modelContext: modelContext)
                        self.modelContainer = modelContainer
                    }
                }
            }

            extension Persistence.Progress: OpenSwiftData.ModelActor {
            }
            """
        }
    }

    /// The user's members with initial values, static, computed and methods stay as written,
    /// and the generated initializer still applies.
    @Test func membersWithInitialValuesKeepTheGeneratedInit() {
        assertMacro {
            """
            @ModelActor
            actor Importer {
                private var imported = 0
                var lastError: String?
                static var shared: Importer?
                var total: Int { imported }

                func importAll() {}
            }
            """
        } expansion: {
            """
            actor Importer {
                private var imported = 0
                var lastError: String?
                static var shared: Importer?
                var total: Int { imported }

                func importAll() {}

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

    /// A property the actor declares itself is not declared again.
    @Test func declaredPropertyIsNotRedeclared() {
        assertMacro {
            """
            @ModelActor
            actor Importer {
                nonisolated let modelContainer: ModelContainer
            }
            """
        } expansion: {
            """
            actor Importer {
                nonisolated let modelContainer: ModelContainer

                nonisolated let modelExecutor: any OpenSwiftData.ModelExecutor

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

    /// An actor that already conforms gets no second conformance (the compiler passes none).
    @Test func declaredConformanceIsNotRepeated() {
        assertMacro(["ModelActor": MacroSpec(type: PersistentModelActorMacro.self, conformances: [])]) {
            """
            @ModelActor
            actor Importer: ModelActor {
            }
            """
        } expansion: {
            """
            actor Importer: ModelActor {

                nonisolated let modelExecutor: any OpenSwiftData.ModelExecutor

                nonisolated let modelContainer: OpenSwiftData.ModelContainer

                init(modelContainer: OpenSwiftData.ModelContainer) {
                    let modelContext = OpenSwiftData.ModelContext(modelContainer)
                    self.modelExecutor = OpenSwiftData.DefaultSerialModelExecutor(modelContext: modelContext)
                    self.modelContainer = modelContainer
                }
            }
            """
        }
    }

    /// A user-written `init(modelContainer:)` replaces the generated one instead of clashing with it.
    @Test func userInitWithTheSameSignatureReplacesTheGeneratedOne() {
        assertMacro {
            """
            @ModelActor
            actor Importer {
                init(modelContainer: ModelContainer) {
                    let context = ModelContext(modelContainer)
                    context.author = "importer"
                    self.modelExecutor = DefaultSerialModelExecutor(modelContext: context)
                    self.modelContainer = modelContainer
                }
            }
            """
        } expansion: {
            """
            actor Importer {
                init(modelContainer: ModelContainer) {
                    let context = ModelContext(modelContainer)
                    context.author = "importer"
                    self.modelExecutor = DefaultSerialModelExecutor(modelContext: context)
                    self.modelContainer = modelContainer
                }

                nonisolated let modelExecutor: any OpenSwiftData.ModelExecutor

                nonisolated let modelContainer: OpenSwiftData.ModelContainer
            }

            extension Importer: OpenSwiftData.ModelActor {
            }
            """
        }
    }

    /// An init whose other parameters all have defaults can be called as `init(modelContainer:)`
    /// too, so the generated one would make such calls ambiguous.
    @Test func userInitCallableWithModelContainerAloneReplacesTheGeneratedOne() {
        assertMacro {
            """
            @ModelActor
            actor Holidays {
                private var calendar = Calendar(identifier: .gregorian)

                init(modelContainer: ModelContainer, calendar: Calendar = Calendar(identifier: .gregorian)) {
                    self.modelExecutor = DefaultSerialModelExecutor(modelContext: ModelContext(modelContainer))
                    self.modelContainer = modelContainer
                    self.calendar = calendar
                }
            }
            """
        } expansion: {
            """
            actor Holidays {
                private var calendar = Calendar(identifier: .gregorian)

                init(modelContainer: ModelContainer, calendar: Calendar = Calendar(identifier: .gregorian)) {
                    self.modelExecutor = DefaultSerialModelExecutor(modelContext: ModelContext(modelContainer))
                    self.modelContainer = modelContainer
                    self.calendar = calendar
                }

                nonisolated let modelExecutor: any OpenSwiftData.ModelExecutor

                nonisolated let modelContainer: OpenSwiftData.ModelContainer
            }

            extension Holidays: OpenSwiftData.ModelActor {
            }
            """
        }
    }

    /// Another initializer keeps the generated `init(modelContainer:)` beside it.
    @Test func otherUserInitKeepsTheGeneratedOne() {
        assertMacro {
            """
            @ModelActor
            actor Repository {
                init() {
                    self.modelContainer = try! ModelContainer(for: Course.self)
                    self.modelExecutor = DefaultSerialModelExecutor(modelContext: ModelContext(modelContainer))
                }
            }
            """
        } expansion: {
            """
            actor Repository {
                init() {
                    self.modelContainer = try! ModelContainer(for: Course.self)
                    self.modelExecutor = DefaultSerialModelExecutor(modelContext: ModelContext(modelContainer))
                }

                nonisolated let modelExecutor: any OpenSwiftData.ModelExecutor

                nonisolated let modelContainer: OpenSwiftData.ModelContainer

                init(modelContainer: OpenSwiftData.ModelContainer) {
                    let modelContext = OpenSwiftData.ModelContext(modelContainer)
                    self.modelExecutor = OpenSwiftData.DefaultSerialModelExecutor(modelContext: modelContext)
                    self.modelContainer = modelContainer
                }
            }

            extension Repository: OpenSwiftData.ModelActor {
            }
            """
        }
    }

    /// Stored properties without initial values and the user's own initializer: the generated
    /// one could not set them, so it is left out, without a diagnostic.
    @Test func userInitSettingExtraPropertiesIsTheOnlyInit() {
        assertMacro {
            """
            @ModelActor
            actor Syncer {
                let client: APIClient
                var pending: [Int]
                var cursor: Optional<String>

                init(container: ModelContainer, client: APIClient) {
                    self.modelContainer = container
                    self.modelExecutor = DefaultSerialModelExecutor(modelContext: ModelContext(container))
                    self.client = client
                    self.pending = []
                    self.cursor = nil
                }
            }
            """
        } expansion: {
            """
            actor Syncer {
                let client: APIClient
                var pending: [Int]
                var cursor: Optional<String>

                init(container: ModelContainer, client: APIClient) {
                    self.modelContainer = container
                    self.modelExecutor = DefaultSerialModelExecutor(modelContext: ModelContext(container))
                    self.client = client
                    self.pending = []
                    self.cursor = nil
                }

                nonisolated let modelExecutor: any OpenSwiftData.ModelExecutor

                nonisolated let modelContainer: OpenSwiftData.ModelContainer
            }

            extension Syncer: OpenSwiftData.ModelActor {
            }
            """
        }
    }
}
