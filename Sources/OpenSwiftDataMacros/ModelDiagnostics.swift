import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// Every message the plugin can show. Each one says what is wrong and what to do instead.
enum ModelDiagnostic: DiagnosticMessage {
    case notAClass(name: String)
    case letProperty(name: String)
    case letRelationship(name: String)
    case missingType(name: String)
    case multipleBindings(names: String)
    case unsupportedModifier(modifier: String, name: String)
    case transientWithoutInitialValue(name: String)
    case conflictingMarkers(name: String, first: String, second: String)
    case outsideModel(macro: String)
    case insideIfConfig(name: String)

    var message: String {
        switch self {
        case .notAClass(let name):
            return "'@Model' can only be applied to a class; make '\(name)' a final class"
        case .letProperty(let name):
            return "'let' property '\(name)' has an initial value, which a model loaded from the store could not replace "
                + "with its stored one; use 'var' to persist it, or mark it '@Transient' to keep it out of the store"
        case .letRelationship(let name):
            return "'let' property '\(name)' cannot be a relationship, which changes as models are linked; use 'var'"
        case .missingType(let name):
            return "persisted property '\(name)' needs a type or an initial value to infer it from "
                + "(for example 'var \(name): String' or 'var \(name) = \"\"')"
        case .multipleBindings(let names):
            return "'\(names)' declares several properties in one 'var'; "
                + "@Model needs each persisted property in its own 'var' declaration"
        case .unsupportedModifier(let modifier, let name):
            return "'\(modifier)' property '\(name)' cannot be persisted; remove '\(modifier)', "
                + "or mark the property '@Transient' to keep it as plain storage"
        case .transientWithoutInitialValue(let name):
            return "@Transient property '\(name)' needs an initial value: models loaded from a store are "
                + "created by 'init(backingData:)', which does not run your init; add '= <value>' or make it optional"
        case .conflictingMarkers(let name, let first, let second):
            return "'\(name)' cannot be marked both '\(first)' and '\(second)'; keep one of them"
        case .outsideModel(let macro):
            return "'#\(macro)' only has an effect inside the body of a @Model class, where '@Model' reads it"
        case .insideIfConfig(let name):
            return "'\(name)' is inside '#if', where @Model cannot see it, so it is not persisted; "
                + "declare it outside the '#if' (optional, if some builds don't use it) or mark it '@Transient'"
        }
    }

    var diagnosticID: MessageID {
        let id: String
        switch self {
        case .notAClass: id = "notAClass"
        case .letProperty: id = "letProperty"
        case .letRelationship: id = "letRelationship"
        case .missingType: id = "missingType"
        case .multipleBindings: id = "multipleBindings"
        case .unsupportedModifier: id = "unsupportedModifier"
        case .transientWithoutInitialValue: id = "transientWithoutInitialValue"
        case .conflictingMarkers: id = "conflictingMarkers"
        case .outsideModel: id = "outsideModel"
        case .insideIfConfig: id = "insideIfConfig"
        }
        return MessageID(domain: "OpenSwiftDataMacros", id: id)
    }

    var severity: DiagnosticSeverity {
        switch self {
        case .outsideModel, .insideIfConfig: return .warning
        default: return .error
        }
    }
}

struct ModelFixIt: FixItMessage {
    let message: String
    var fixItID: MessageID { MessageID(domain: "OpenSwiftDataMacros", id: message) }
}

// MARK: - Turning problems into diagnostics

extension ModelProblem {
    var diagnostic: Diagnostic {
        switch self {
        case .letProperty(let decl, let name):
            var fixIts = [FixIt(
                message: ModelFixIt(message: "replace 'let' with 'var'"),
                changes: [.replace(
                    oldNode: Syntax(decl.bindingSpecifier),
                    newNode: Syntax(decl.bindingSpecifier.with(\.tokenKind, .keyword(.var))))]
            )]
            if decl.bindings.allSatisfy({ $0.initializer != nil }) {
                fixIts.append(.markTransient(decl, name: name))
            }
            return Diagnostic(
                node: decl.bindingSpecifier,
                message: decl.bindings.first?.initializer == nil
                    ? ModelDiagnostic.letRelationship(name: name) : ModelDiagnostic.letProperty(name: name),
                fixIts: fixIts)

        case .missingType(_, let binding, let name):
            return Diagnostic(node: binding.pattern, message: ModelDiagnostic.missingType(name: name))

        case .multipleBindings(let decl):
            let names = decl.bindings.map { $0.pattern.trimmedDescription }.joined(separator: ", ")
            let spelled = "\(decl.bindingSpecifier.text) \(names)"
            return Diagnostic(
                node: decl.bindings,
                message: ModelDiagnostic.multipleBindings(names: spelled),
                fixIts: splitBindingsFixIt(decl).map { [$0] } ?? [])

        case .unsupportedModifier(let decl, let modifier, let name):
            let keyword = modifier.name.text
            return Diagnostic(
                node: modifier,
                message: ModelDiagnostic.unsupportedModifier(modifier: keyword, name: name),
                fixIts: [
                    FixIt(
                        message: ModelFixIt(message: "remove '\(keyword)'"),
                        changes: [.replaceText(
                            range: modifier.positionAfterSkippingLeadingTrivia..<modifier.endPosition,
                            with: "",
                            in: Syntax(modifier))]),
                    .markTransient(decl, name: name),
                ])

        case .transientWithoutInitialValue(let decl, let binding, let name):
            let end = (binding.typeAnnotation.map(Syntax.init) ?? Syntax(binding.pattern)).endPositionBeforeTrailingTrivia
            return Diagnostic(
                node: binding.pattern,
                message: ModelDiagnostic.transientWithoutInitialValue(name: name),
                fixIts: [FixIt(
                    message: ModelFixIt(message: "add an initial value"),
                    changes: [.replaceText(range: end..<end, with: " = <#initial value#>", in: Syntax(decl))])])

        case .conflictingMarkers(let attribute, let name, let first, let second):
            return Diagnostic(
                node: attribute,
                message: ModelDiagnostic.conflictingMarkers(name: name, first: first, second: second))
        }
    }
}

extension FixIt {
    /// Inserts `@Transient ` in front of the declaration.
    static func markTransient(_ decl: VariableDeclSyntax, name: String) -> FixIt {
        let start = decl.positionAfterSkippingLeadingTrivia
        return FixIt(
            message: ModelFixIt(message: "mark '\(name)' '@Transient'"),
            changes: [.replaceText(range: start..<start, with: "@Transient ", in: Syntax(decl))])
    }
}

/// `var a, b: Int` → `var a: Int` and `var b: Int` on separate lines, keeping attributes and
/// modifiers on each. Returns nil for destructuring patterns, which cannot be split this way.
private func splitBindingsFixIt(_ decl: VariableDeclSyntax) -> FixIt? {
    let bindings = Array(decl.bindings)
    guard bindings.allSatisfy({ $0.pattern.is(IdentifierPatternSyntax.self) }) else { return nil }

    // In `var a, b: Int` the first name takes its type from the next annotated binding.
    var declarations: [String] = []
    for (index, binding) in bindings.enumerated() {
        var text = binding.pattern.trimmedDescription
        if let annotation = binding.typeAnnotation {
            text += ": \(annotation.type.trimmedDescription)"
        } else if binding.initializer == nil, let shared = decl.declaredType(ofBindingAt: index) {
            text += ": \(shared.trimmedDescription)"
        }
        if let initializer = binding.initializer {
            text += " = \(initializer.value.trimmedDescription)"
        }
        if let accessors = binding.accessorBlock {
            text += " \(accessors.trimmedDescription)"
        }
        declarations.append(text)
    }

    var prefix = ""
    if !decl.attributes.isEmpty { prefix += decl.attributes.trimmedDescription + " " }
    if !decl.modifiers.isEmpty { prefix += decl.modifiers.trimmedDescription + " " }
    prefix += decl.bindingSpecifier.text + " "

    let separator = "\n" + decl.indentation
    let replacement = declarations.map { prefix + $0 }.joined(separator: separator)
    return FixIt(
        message: ModelFixIt(message: "declare each property in its own '\(decl.bindingSpecifier.text)'"),
        changes: [.replaceText(
            range: decl.positionAfterSkippingLeadingTrivia..<decl.endPositionBeforeTrailingTrivia,
            with: replacement,
            in: Syntax(decl))])
}

extension SyntaxProtocol {
    /// The spaces or tabs that start the line this node begins on.
    var indentation: String {
        var result = ""
        for piece in leadingTrivia.pieces.reversed() {
            switch piece {
            case .spaces(let count): result = String(repeating: " ", count: count) + result
            case .tabs(let count): result = String(repeating: "\t", count: count) + result
            default: return result
            }
        }
        return result
    }
}

/// `#Unique`/`#Index` mean something only where `@Model` reads them: directly in the body of a
/// @Model class. Warn when the macro is plainly somewhere else: in a struct, enum, actor,
/// extension or function. Any class body is accepted (by the time a freestanding macro inside it
/// is expanded, the class's own attributes may already be consumed), and so is an unknown
/// (empty) lexical context, which is also what file scope looks like.
func warnIfOutsideModel(
    _ node: some FreestandingMacroExpansionSyntax,
    macro: String,
    in context: some MacroExpansionContext
) {
    guard let enclosing = context.lexicalContext.first, !enclosing.is(ClassDeclSyntax.self) else { return }
    context.diagnose(Diagnostic(node: node.macroName, message: ModelDiagnostic.outsideModel(macro: macro)))
}

extension DeclGroupSyntax {
    /// What a diagnostic calls the declaration a macro was attached to: a type's name, an
    /// extension's extended type, or "this declaration".
    var nameForDiagnostics: String {
        if let named = asProtocol(NamedDeclSyntax.self) { return named.name.text }
        if let extensionDecl = self.as(ExtensionDeclSyntax.self) { return extensionDecl.extendedType.trimmedDescription }
        return "this declaration"
    }
}
