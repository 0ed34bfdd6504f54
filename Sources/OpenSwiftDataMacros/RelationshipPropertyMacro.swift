import SwiftSyntax
import SwiftSyntaxMacros

/// `@Relationship(...)`: a marker. It generates nothing; `@Model` reads its arguments and records
/// them in `schemaMetadata` as `Schema.Relationship(...)` (wrapped in `_explicitlyUnidirectional`
/// when the arguments say `inverse: nil`).
public struct RelationshipPropertyMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}
