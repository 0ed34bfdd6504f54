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
///
/// For a property with an initial value, the init accessor skips it while the backing data
/// ignores it (a context creating the model over a loaded row), before the key path is made. The getter and setter
/// make their key path once, rooted in the enclosing class, and use it twice: making a key path
/// is a call into the runtime on every access.
public struct PersistedPropertyMacro {}

extension PersistedPropertyMacro: AccessorMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let property = persistedIdentifier(of: declaration),
              let root = enclosingClassName(in: context)
        else { return [] }
        let keyPath = "\\\(root).\(property.keyPathName)"
        let store: CodeBlockItemSyntax = "_$backingData.setValue(forKey: \\.\(raw: property.keyPathName), to: initialValue)"
        // Only a property with an initial value is given one while a row is loaded; the check
        // would cost the others' assignments in `init` for nothing.
        let storeUnlessLoading: CodeBlockItemSyntax = property.hasInitialValue
            ? "if !_$backingData._$ignoresInitialValues { \(store) }" : store
        return [
            """
            @storageRestrictions(accesses: _$backingData, initializes: _\(raw: property.name))
            init(initialValue) {
                \(storeUnlessLoading)
                _\(raw: property.name) = _SwiftDataNoType()
            }
            """,
            """
            get {
                let keyPath = \(raw: keyPath)
                _$observationRegistrar.access(self, keyPath: keyPath)
                return self.getValue(forKey: keyPath)
            }
            """,
            """
            set {
                let keyPath = \(raw: keyPath)
                _$observationRegistrar.withMutation(of: self, keyPath: keyPath) {
                    self.setValue(forKey: keyPath, to: newValue)
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
        guard let property = persistedIdentifier(of: declaration), enclosingClassName(in: context) != nil else { return [] }
        return [
            """
            @Transient
            private var _\(raw: property.name): _SwiftDataNoType
            """
        ]
    }
}

/// The name of the class the property is declared in; `nil` outside a class, where `@Model`
/// attaches nothing (and has reported why), so the macro, written by hand there, adds nothing.
private func enclosingClassName(in context: some MacroExpansionContext) -> String? {
    context.lexicalContext.first?.as(ClassDeclSyntax.self)?.name.text
}

/// The single simple name of a stored `var`, or nil for anything `@Model` would not have marked
/// (in which case `@Model` has already reported why). `hasInitialValue`: it has an initializer,
/// or is a `T?` or `T!` (which starts as nil), so every initializer of the model, the one a
/// context loads a row with included, passes its init accessor a value.
private func persistedIdentifier(
    of declaration: some DeclSyntaxProtocol
) -> (name: String, keyPathName: String, hasInitialValue: Bool)? {
    guard let variable = declaration.as(VariableDeclSyntax.self),
          variable.bindingSpecifier.tokenKind == .keyword(.var),
          variable.bindings.count == 1,
          let binding = variable.bindings.first,
          !binding.isComputed,
          let identifier = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier
    else { return nil }
    let hasInitialValue = binding.initializer != nil || binding.typeAnnotation?.type.isOptional == true
    return (identifier.text.withoutBackticks, identifier.text, hasInitialValue)
}
