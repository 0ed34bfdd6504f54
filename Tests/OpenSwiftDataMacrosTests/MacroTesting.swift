import OpenSwiftDataMacros
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// Every macro of the plugin, named as the `OpenSwiftData` module declares them, so a test
/// expands `@Model` the way the compiler does: member attributes first, then the nested
/// `@_PersistedProperty`, the markers and the freestanding `#Unique`/`#Index`.
let allMacros: [String: MacroSpec] = [
    "Model": MacroSpec(
        type: PersistentModelMacro.self,
        conformances: ["Observable", "PersistentModel", "Sendable"]),
    "_PersistedProperty": MacroSpec(type: PersistedPropertyMacro.self),
    "Attribute": MacroSpec(type: AttributePropertyMacro.self),
    "Relationship": MacroSpec(type: RelationshipPropertyMacro.self),
    "Transient": MacroSpec(type: TransientPropertyMacro.self),
    "Unique": MacroSpec(type: UniqueConstraintsMacro.self),
    "Index": MacroSpec(type: IndexMacro.self),
]

/// `assertMacroExpansion` reporting through Swift Testing.
func assertExpansion(
    _ source: String,
    expandedSource: String,
    diagnostics: [DiagnosticSpec] = [],
    macros: [String: MacroSpec] = allMacros,
    applyFixIts: [String]? = nil,
    fixedSource: String? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    assertMacroExpansion(
        source,
        expandedSource: expandedSource,
        diagnostics: diagnostics,
        macroSpecs: macros,
        applyFixIts: applyFixIts,
        fixedSource: fixedSource,
        indentationWidth: .spaces(4),
        failureHandler: { failure in
            Issue.record(
                Comment(rawValue: failure.message),
                sourceLocation: SourceLocation(
                    fileID: failure.location.fileID,
                    filePath: failure.location.filePath,
                    line: failure.location.line,
                    column: failure.location.column))
        },
        fileID: fileID,
        filePath: filePath,
        line: line,
        column: column
    )
}

/// Only the named macros, so a test shows one role's output with the rest left as written.
func only(_ names: String...) -> [String: MacroSpec] {
    Dictionary(uniqueKeysWithValues: names.map { ($0, allMacros[$0]!) })
}

/// Parses `container { use }` and returns the macro use and its container, for calling a
/// freestanding macro's `expansion(of:in:)` directly with a lexical context.
func freestandingUse(_ use: String, in container: String) throws -> (MacroExpansionDeclSyntax, Syntax) {
    let file = Parser.parse(source: "\(container) {\n    \(use)\n}\n")
    let decl = try #require(file.statements.first?.item.as(DeclSyntax.self))
    let members = try #require(decl.asProtocol((any DeclGroupSyntax).self)?.memberBlock.members)
    let macroUse = try #require(members.first?.decl.as(MacroExpansionDeclSyntax.self))
    return (macroUse, Syntax(decl))
}
