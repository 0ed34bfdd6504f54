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
///
/// The property's `willSet` and `didSet` (which the compiler drops once the property has a
/// getter) run in the setter, inside the mutation as `@Observable` runs them: each body is an
/// immediately applied closure, so its parameter (`newValue`, `oldValue` or the name written)
/// takes the property's type without it being spelled, `return` leaves the observer only, and
/// `[self]` lets the body name members without `self.`. They run when code sets the property,
/// never when a fetch, a migration or an undo fills it (those write the backing data).
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
        let observers = PropertyObservers(of: declaration)
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
            observers.isEmpty
                ? """
                set {
                    let keyPath = \(raw: keyPath)
                    _$observationRegistrar.withMutation(of: self, keyPath: keyPath) {
                        self.setValue(forKey: keyPath, to: newValue)
                    }
                }
                """
                : observers.setter(keyPath: keyPath),
        ]
    }
}

/// A property's `willSet` and `didSet`, as the setter runs them.
private struct PropertyObservers {
    /// The `willSet` accessor.
    var beforeSet: AccessorDeclSyntax?
    /// The `didSet` accessor.
    var afterSet: AccessorDeclSyntax?

    init(of declaration: some DeclSyntaxProtocol) {
        guard case .accessors(let accessors) = declaration.as(VariableDeclSyntax.self)?.bindings.first?.accessorBlock?.accessors
        else { return }
        beforeSet = accessors.first { $0.accessorSpecifier.tokenKind == .keyword(.willSet) }
        afterSet = accessors.first { $0.accessorSpecifier.tokenKind == .keyword(.didSet) }
    }

    var isEmpty: Bool { beforeSet == nil && afterSet == nil }

    func setter(keyPath: String) -> AccessorDeclSyntax {
        var mutation: [String] = []
        if let beforeSet { mutation.append(Self.call(beforeSet, parameter: "newValue", with: "newValue")) }
        mutation.append("self.setValue(forKey: keyPath, to: newValue)")
        if let afterSet { mutation.append(Self.call(afterSet, parameter: "oldValue", with: "oldValue")) }
        let oldValue = afterSet == nil ? "" : "\nlet oldValue = self.getValue(forKey: keyPath)"
        return """
            set {
                let keyPath = \(raw: keyPath)\(raw: oldValue)
                _$observationRegistrar.withMutation(of: self, keyPath: keyPath) {
                    \(raw: mutation.joined(separator: "\n"))
                }
            }
            """
    }

    /// `_ = { [self] name in body }(argument)`: the observer's body, its parameter named as
    /// written.
    private static func call(_ observer: AccessorDeclSyntax, parameter: String, with argument: String) -> String {
        let name = observer.parameters?.name.text ?? parameter
        let statements = observer.body?.statements.trimmedDescription ?? ""
        return "_ = { [self] \(name) in\n\(statements)\n}(\(argument))"
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
