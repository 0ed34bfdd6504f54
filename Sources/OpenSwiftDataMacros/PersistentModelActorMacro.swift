import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@ModelActor`: makes an actor a `ModelActor`.
///
/// - member role: adds `nonisolated let modelExecutor` and `nonisolated let modelContainer`
///   (each unless the actor declares it already) and `init(modelContainer:)`, which creates a
///   `ModelContext` and a `DefaultSerialModelExecutor` over it;
/// - extension role: adds the `ModelActor` conformance.
///
/// The initializer is left out when the actor declares one callable as `init(modelContainer:)`
/// (it would be a redeclaration), and when the actor declares any initializer while some stored
/// property has no initial value (the generated one could not set it). Without any initializer
/// of the user's, such a property is an error that says what to do.
public struct PersistentModelActorMacro {}

extension PersistentModelActorMacro: MemberMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let actorDecl = declaration.as(ActorDeclSyntax.self) else {
            diagnoseNotAnActor(declaration, in: context)
            return []
        }
        let access = ModelAccess(actorDecl).modifier
        let members = actorDecl.memberBlock.members.map(\.decl)
        let declaredNames = Set(members.compactMap { $0.as(VariableDeclSyntax.self) }.flatMap(\.storedNames))
        let initializers = members.compactMap { $0.as(InitializerDeclSyntax.self) }

        var result: [DeclSyntax] = []
        if !declaredNames.contains("modelExecutor") {
            result.append("\(raw: access)nonisolated let modelExecutor: any OpenSwiftData.ModelExecutor")
        }
        if !declaredNames.contains("modelContainer") {
            result.append("\(raw: access)nonisolated let modelContainer: OpenSwiftData.ModelContainer")
        }

        if initializers.contains(where: \.isCallableWithModelContainerAlone) {
            return result
        }
        let unset = members.compactMap { $0.as(VariableDeclSyntax.self) }
            .flatMap(\.bindingsWithoutInitialValue)
            .filter { $0.name != "modelExecutor" && $0.name != "modelContainer" }
        if !unset.isEmpty {
            if initializers.isEmpty {
                for property in unset {
                    context.diagnose(Diagnostic(
                        node: property.node,
                        message: ModelActorDiagnostic.storedPropertyWithoutValue(
                            name: property.name, actor: actorDecl.name.text)))
                }
            }
            return result
        }
        result.append(
            """
            \(raw: access)init(modelContainer: OpenSwiftData.ModelContainer) {
                let modelContext = OpenSwiftData.ModelContext(modelContainer)
                self.modelExecutor = OpenSwiftData.DefaultSerialModelExecutor(modelContext: modelContext)
                self.modelContainer = modelContainer
            }
            """)
        return result
    }

    private static func diagnoseNotAnActor(_ declaration: some DeclGroupSyntax, in context: some MacroExpansionContext) {
        let keyword = declaration.introducer
        let name = declaration.nameForDiagnostics

        // A class or a struct becomes an actor by changing its keyword; the others don't.
        var fixIts: [FixIt] = []
        if declaration.is(ClassDeclSyntax.self) || declaration.is(StructDeclSyntax.self) {
            fixIts.append(FixIt(
                message: ModelFixIt(message: "replace '\(keyword.text)' with 'actor'"),
                changes: [.replace(oldNode: Syntax(keyword), newNode: Syntax(keyword.with(\.tokenKind, .keyword(.actor))))]))
        }
        context.diagnose(Diagnostic(node: keyword, message: ModelActorDiagnostic.notAnActor(name: name), fixIts: fixIts))
    }
}

extension PersistentModelActorMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        // The compiler passes the conformance only when the actor does not declare it already.
        guard declaration.is(ActorDeclSyntax.self), !protocols.isEmpty else { return [] }
        return [try ExtensionDeclSyntax("extension \(raw: type.trimmedDescription): OpenSwiftData.ModelActor {}")]
    }
}

// MARK: - Diagnostics

enum ModelActorDiagnostic: DiagnosticMessage {
    case notAnActor(name: String)
    case storedPropertyWithoutValue(name: String, actor: String)

    var message: String {
        switch self {
        case .notAnActor(let name):
            return "'@ModelActor' can only be applied to an actor; make '\(name)' an actor"
        case .storedPropertyWithoutValue(let name, let actor):
            return "'@ModelActor' generates 'init(modelContainer:)', which cannot set '\(name)'; give '\(name)' an "
                + "initial value, or write an initializer for '\(actor)' that sets it along with 'modelContainer' and "
                + "'modelExecutor'"
        }
    }

    var diagnosticID: MessageID {
        switch self {
        case .notAnActor: MessageID(domain: "OpenSwiftDataMacros", id: "modelActor.notAnActor")
        case .storedPropertyWithoutValue: MessageID(domain: "OpenSwiftDataMacros", id: "modelActor.storedPropertyWithoutValue")
        }
    }

    var severity: DiagnosticSeverity { .error }
}

// MARK: - Reading the actor's members

private extension InitializerDeclSyntax {
    /// Whether `init(modelContainer: x)` would call this initializer: its first parameter is
    /// labelled `modelContainer` and every other one has a default value.
    var isCallableWithModelContainerAlone: Bool {
        let parameters = Array(signature.parameterClause.parameters)
        guard let first = parameters.first, first.firstName.text == "modelContainer" else { return false }
        return parameters.dropFirst().allSatisfy { $0.defaultValue != nil }
    }
}

private extension VariableDeclSyntax {
    /// The names of the stored instance properties the declaration declares.
    var storedNames: [String] {
        guard !isStatic else { return [] }
        return bindings.filter { !$0.isComputed }.compactMap { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text }
    }

    /// Stored instance properties that an initializer must set: no initial value, not an
    /// optional `var` (those start as nil), and no attribute (a property wrapper may supply the
    /// value).
    var bindingsWithoutInitialValue: [(name: String, node: Syntax)] {
        guard !isStatic, attributes.isEmpty else { return [] }
        let isVar = bindingSpecifier.tokenKind == .keyword(.var)
        var result: [(name: String, node: Syntax)] = []
        for (index, binding) in bindings.enumerated() where !binding.isComputed && binding.initializer == nil {
            guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
            // Only `T?` and `T!` start as nil, as Swift does it (not `Optional<T>` spelled out).
            let type = declaredType(ofBindingAt: index)
            if isVar, let type, type.isOptional { continue }
            result.append((identifier.identifier.text, Syntax(binding.pattern)))
        }
        return result
    }
}
