import SwiftSyntax
import SwiftSyntaxMacros

/// `@Transient`: a marker. It generates nothing; `@Model` sees it and leaves the property as
/// ordinary storage (checking that it has an initial value).
public struct TransientPropertyMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}
