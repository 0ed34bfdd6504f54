import SwiftSyntax
import SwiftSyntaxMacros

/// `#Unique<T>(...)`: expands to nothing. `@Model` reads the macro use in the class body and
/// appends a `Schema.Unique<T>` entry to `schemaMetadata`.
public struct UniqueConstraintsMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        warnIfOutsideModel(node, macro: "Unique", in: context)
        return []
    }
}
