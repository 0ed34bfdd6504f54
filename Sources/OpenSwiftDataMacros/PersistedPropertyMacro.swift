import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@_PersistedProperty`: attached by `@Model` to each persisted property; never written by hand.
///
/// Accessor role: an init accessor that stores the initial value straight into the backing data
/// (so a user `init` can assign `self.name = ...` before `self` is fully initialised), a getter
/// that reports the read to Observation, and a setter that wraps the write in `withMutation`.
/// Peer role: `_name`, an empty placeholder the init accessor "initializes", which is how the
/// compiler's definite-initialisation check tracks the property.
public struct PersistedPropertyMacro {}

extension PersistedPropertyMacro: AccessorMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let property = persistedIdentifier(of: declaration) else { return [] }
        let keyPath = "\\.\(property.keyPathName)"
        return [
            """
            @storageRestrictions(accesses: _$backingData, initializes: _\(raw: property.name))
            init(initialValue) {
                _$backingData.setValue(forKey: \(raw: keyPath), to: initialValue)
                _\(raw: property.name) = _SwiftDataNoType()
            }
            """,
            """
            get {
                _$observationRegistrar.access(self, keyPath: \(raw: keyPath))
                return self.getValue(forKey: \(raw: keyPath))
            }
            """,
            """
            set {
                _$observationRegistrar.withMutation(of: self, keyPath: \(raw: keyPath)) {
                    self.setValue(forKey: \(raw: keyPath), to: newValue)
                }
            }
            """,
        ]
    }
}

extension PersistedPropertyMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let property = persistedIdentifier(of: declaration) else { return [] }
        return [
            """
            @Transient
            private var _\(raw: property.name): _SwiftDataNoType
            """
        ]
    }
}

/// The single simple name of a stored `var`, or nil for anything `@Model` would not have marked
/// (in which case `@Model` has already reported why).
private func persistedIdentifier(of declaration: some DeclSyntaxProtocol) -> (name: String, keyPathName: String)? {
    guard let variable = declaration.as(VariableDeclSyntax.self),
          variable.bindingSpecifier.tokenKind == .keyword(.var),
          variable.bindings.count == 1,
          let binding = variable.bindings.first,
          !binding.isComputed,
          let identifier = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier
    else { return nil }
    return (identifier.text.withoutBackticks, identifier.text)
}
