import OpenSwiftDataMacros
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@ModelActor` as the `OpenSwiftData` module declares it.
private let modelActor: [String: MacroSpec] = [
    "ModelActor": MacroSpec(type: PersistentModelActorMacro.self, conformances: ["ModelActor"]),
]

@Suite struct PersistentModelActorMacroTests {
    /// The expansion SwiftData produces: two nonisolated properties, `init(modelContainer:)`
    /// creating a context and a serial executor over it, and the conformance.
    @Test func emptyActor() {
        assertExpansion(
            #"""
            @ModelActor
            actor Importer {
            }
            """#,
            expandedSource: #"""
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
            """#,
            macros: modelActor
        )
    }

    /// The user's methods and properties with initial values stay as written; the generated
    /// initializer still applies.
    @Test func membersWithInitialValuesKeepTheGeneratedInit() {
        assertExpansion(
            #"""
            @ModelActor
            actor Importer {
                private var imported = 0
                var lastError: String?
                static var shared: Importer?
                var total: Int { imported }

                func importAll() {}
            }
            """#,
            expandedSource: #"""
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
            """#,
            macros: modelActor
        )
    }

    /// A public actor's generated members are public, as its conformance requires.
    @Test func publicActor() {
        assertExpansion(
            #"""
            @ModelActor
            public actor Store {
            }
            """#,
            expandedSource: #"""
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
            """#,
            macros: modelActor
        )
    }

    /// A package actor's generated members are package.
    @Test func packageActor() {
        assertExpansion(
            #"""
            @ModelActor
            package actor Store {
            }
            """#,
            expandedSource: #"""
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
            """#,
            macros: modelActor
        )
    }

    /// A user-written `init(modelContainer:)` that assigns both properties replaces the
    /// generated one instead of clashing with it.
    @Test func userInitWithTheSameSignatureReplacesTheGeneratedOne() {
        assertExpansion(
            #"""
            @ModelActor
            actor Importer {
                init(modelContainer: ModelContainer) {
                    let context = ModelContext(modelContainer)
                    context.author = "importer"
                    self.modelExecutor = DefaultSerialModelExecutor(modelContext: context)
                    self.modelContainer = modelContainer
                }
            }
            """#,
            expandedSource: #"""
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
            """#,
            macros: modelActor
        )
    }

    /// An init whose other parameters all have defaults can be called as
    /// `init(modelContainer:)` too, so the generated one would make such calls ambiguous.
    @Test func userInitCallableWithModelContainerAloneReplacesTheGeneratedOne() {
        assertExpansion(
            #"""
            @ModelActor
            actor Holidays {
                private var calendar = Calendar(identifier: .gregorian)

                init(modelContainer: ModelContainer, calendar: Calendar = Calendar(identifier: .gregorian)) {
                    self.modelExecutor = DefaultSerialModelExecutor(modelContext: ModelContext(modelContainer))
                    self.modelContainer = modelContainer
                    self.calendar = calendar
                }
            }
            """#,
            expandedSource: #"""
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
            """#,
            macros: modelActor
        )
    }

    /// Another initializer, with every stored property initialised elsewhere: the generated
    /// `init(modelContainer:)` is still there beside it.
    @Test func otherUserInitKeepsTheGeneratedOne() {
        assertExpansion(
            #"""
            @ModelActor
            actor Repository {
                init() {
                    self.modelContainer = try! ModelContainer(for: Course.self)
                    self.modelExecutor = DefaultSerialModelExecutor(modelContext: ModelContext(modelContainer))
                }
            }
            """#,
            expandedSource: #"""
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
            """#,
            macros: modelActor
        )
    }

    /// Stored properties without initial values and the user's own initializer: the generated
    /// one could not set them, so it is left out.
    @Test func userInitSettingExtraPropertiesIsTheOnlyInit() {
        assertExpansion(
            #"""
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
            """#,
            expandedSource: #"""
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
            """#,
            macros: modelActor
        )
    }

    /// Without an initializer of the user's, a stored property with no initial value is an
    /// error naming it and saying what to do.
    @Test func storedPropertyWithoutValueNeedsAnInit() {
        assertExpansion(
            #"""
            @ModelActor
            actor Syncer {
                let client: APIClient
                var retries: Int?
            }
            """#,
            expandedSource: #"""
            actor Syncer {
                let client: APIClient
                var retries: Int?

                nonisolated let modelExecutor: any OpenSwiftData.ModelExecutor

                nonisolated let modelContainer: OpenSwiftData.ModelContainer
            }

            extension Syncer: OpenSwiftData.ModelActor {
            }
            """#,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@ModelActor' generates 'init(modelContainer:)', which cannot set 'client'; give 'client' "
                        + "an initial value, or write an initializer for 'Syncer' that sets it along with "
                        + "'modelContainer' and 'modelExecutor'",
                    line: 3,
                    column: 9),
            ],
            macros: modelActor
        )
    }

    /// Properties the actor declares itself are not declared again.
    @Test func declaredPropertiesAreNotRedeclared() {
        assertExpansion(
            #"""
            @ModelActor
            actor Importer {
                nonisolated let modelContainer: ModelContainer
            }
            """#,
            expandedSource: #"""
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
            """#,
            macros: modelActor
        )
    }

    /// An actor that already declares the conformance gets no second one.
    @Test func declaredConformanceIsNotRepeated() {
        assertExpansion(
            #"""
            @ModelActor
            actor Importer: ModelActor {
            }
            """#,
            expandedSource: #"""
            actor Importer: ModelActor {

                nonisolated let modelExecutor: any OpenSwiftData.ModelExecutor

                nonisolated let modelContainer: OpenSwiftData.ModelContainer

                init(modelContainer: OpenSwiftData.ModelContainer) {
                    let modelContext = OpenSwiftData.ModelContext(modelContainer)
                    self.modelExecutor = OpenSwiftData.DefaultSerialModelExecutor(modelContext: modelContext)
                    self.modelContainer = modelContainer
                }
            }
            """#,
            macros: [
                "ModelActor": MacroSpec(type: PersistentModelActorMacro.self, conformances: []),
            ]
        )
    }

    /// A nested actor's conformance names it fully.
    @Test func nestedActor() {
        assertExpansion(
            #"""
            enum Persistence {
                @ModelActor
                actor Progress {
                }
            }
            """#,
            expandedSource: #"""
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
            """#,
            macros: modelActor
        )
    }

    /// A class is rejected, with a fix-it that makes it an actor.
    @Test func classIsRejected() {
        assertExpansion(
            #"""
            @ModelActor
            final class Importer {
            }
            """#,
            expandedSource: #"""
            final class Importer {
            }
            """#,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@ModelActor' can only be applied to an actor; make 'Importer' an actor",
                    line: 2,
                    column: 7,
                    fixIts: [FixItSpec(message: "replace 'class' with 'actor'")]),
            ],
            macros: modelActor,
            applyFixIts: ["replace 'class' with 'actor'"],
            fixedSource: #"""
            @ModelActor
            final actor Importer {
            }
            """#
        )
    }

    /// A struct is rejected, with the same fix-it.
    @Test func structIsRejected() {
        assertExpansion(
            #"""
            @ModelActor
            struct Importer {
            }
            """#,
            expandedSource: #"""
            struct Importer {
            }
            """#,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@ModelActor' can only be applied to an actor; make 'Importer' an actor",
                    line: 2,
                    column: 1,
                    fixIts: [FixItSpec(message: "replace 'struct' with 'actor'")]),
            ],
            macros: modelActor,
            applyFixIts: ["replace 'struct' with 'actor'"],
            fixedSource: #"""
            @ModelActor
            actor Importer {
            }
            """#
        )
    }

    /// An enum is rejected without a fix-it.
    @Test func enumIsRejected() {
        assertExpansion(
            #"""
            @ModelActor
            enum Importer {
            }
            """#,
            expandedSource: #"""
            enum Importer {
            }
            """#,
            diagnostics: [
                DiagnosticSpec(
                    message: "'@ModelActor' can only be applied to an actor; make 'Importer' an actor",
                    line: 2,
                    column: 1),
            ],
            macros: modelActor
        )
    }
}
