import SwiftSyntax
import SwiftSyntaxMacros

/// `#Index<T>(...)` (both forms): expands to nothing. `@Model` reads the macro use in the class
/// body and appends a `Schema.Index<T>` entry to `schemaMetadata`.
public struct IndexMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        warnIfOutsideModel(node, macro: "Index", in: context)
        return []
    }
}
