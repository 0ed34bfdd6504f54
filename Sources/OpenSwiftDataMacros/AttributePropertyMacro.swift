import SwiftSyntax
import SwiftSyntaxMacros

/// `@Attribute(...)`: a marker. It generates nothing; `@Model` reads its arguments and records
/// them in `schemaMetadata` as `Schema.Attribute(...)`.
public struct AttributePropertyMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}
