import SwiftSyntax

/// How `@Model` treats one `var`/`let` member of the class. Shared by the member role (which
/// emits the diagnostics and the schema metadata) and the member-attribute role (which attaches
/// `@_PersistedProperty`), so both roles always agree.
enum MemberKind {
    /// A stored property that becomes persisted.
    case persisted(PersistedProperty)
    /// Left alone: computed, `static`/`class`, `@Transient`, or produced by a macro.
    case ignored
    /// Something `@Model` cannot persist; the problems say why.
    case invalid([ModelProblem])
}

/// A persisted property, as the member role needs it.
struct PersistedProperty {
    /// The name as written (may carry backticks), used in key paths.
    let identifier: TokenSyntax
    /// The type as written; `nil` when Swift infers it from the initial value
    /// (`var tags = [String]()`).
    let type: TypeSyntax?
    let initializer: ExprSyntax?
    let attribute: AttributeSyntax?
    let relationship: AttributeSyntax?
    /// A `let`: plain storage the model's `init` sets once and `init(backingData:)` sets from
    /// the store, never accessors (which Swift refuses on a `let`).
    var isConstant = false

    /// The name without backticks, used in strings and the `_name` peer.
    var name: String { identifier.text.withoutBackticks }
}

/// A problem found in one member, turned into a diagnostic by the member role.
enum ModelProblem {
    case letProperty(VariableDeclSyntax, name: String)
    case missingType(VariableDeclSyntax, binding: PatternBindingSyntax, name: String)
    case multipleBindings(VariableDeclSyntax)
    case unsupportedModifier(VariableDeclSyntax, modifier: DeclModifierSyntax, name: String)
    case transientWithoutInitialValue(VariableDeclSyntax, binding: PatternBindingSyntax, name: String)
    case conflictingMarkers(AttributeSyntax, name: String, first: String, second: String)
}

enum MarkerName {
    static let transient = "Transient"
    static let attribute = "Attribute"
    static let relationship = "Relationship"
    static let persistedProperty = "_PersistedProperty"
}

extension VariableDeclSyntax {
    /// Whether the declaration is `static` or `class`.
    var isStatic: Bool {
        modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
    }

    /// The type written for the binding at `index` when it has no initial value: its own
    /// annotation or, in `var a, b: Int?`, the next one, which Swift applies to the names before it.
    func declaredType(ofBindingAt index: Int) -> TypeSyntax? {
        bindings.dropFirst(index).lazy.compactMap(\.typeAnnotation).first?.type
    }

    /// Classifies this member for `@Model`.
    var modelMemberKind: MemberKind {
        if isStatic { return .ignored }
        // Already expanded by us (or written by hand): leave it.
        if attributes.first(named: MarkerName.persistedProperty) != nil { return .ignored }

        let transient = attributes.first(named: MarkerName.transient)
        let attribute = attributes.first(named: MarkerName.attribute)
        let relationship = attributes.first(named: MarkerName.relationship)
        let isLet = bindingSpecifier.tokenKind == .keyword(.let)

        // Computed properties are never persisted, whatever is attached to them.
        if bindings.allSatisfy({ $0.isComputed }) { return .ignored }

        let displayName = bindings.first.map { $0.pattern.trimmedDescription.withoutBackticks } ?? "?"
        var problems: [ModelProblem] = []

        if transient != nil {
            if let marker = attribute ?? relationship {
                problems.append(.conflictingMarkers(
                    marker, name: displayName, first: "@Transient", second: "@\(marker.simpleName)"))
            }
            // Plain storage; it only has to be initialisable by `init(backingData:)`.
            for (index, binding) in bindings.enumerated() where binding.initializer == nil && !binding.isComputed {
                let implicitlyNil = !isLet && (declaredType(ofBindingAt: index)?.isOptional ?? false)
                if !implicitlyNil {
                    problems.append(.transientWithoutInitialValue(
                        self, binding: binding, name: binding.pattern.trimmedDescription.withoutBackticks))
                }
            }
            return problems.isEmpty ? .ignored : .invalid(problems)
        }

        if let attribute, let relationship {
            let second = attribute.position < relationship.position ? relationship : attribute
            problems.append(.conflictingMarkers(
                second, name: displayName, first: "@Attribute", second: "@Relationship"))
        }

        if bindings.count != 1 || bindings.first?.pattern.is(IdentifierPatternSyntax.self) != true {
            problems.append(.multipleBindings(self))
            return .invalid(problems)
        }
        let binding = bindings.first!
        let identifier = binding.pattern.as(IdentifierPatternSyntax.self)!.identifier
        let name = identifier.text.withoutBackticks

        // A `let` with an initial value cannot be given the stored value when a model is
        // loaded, and a relationship changes after its model is created.
        if isLet, binding.initializer != nil || relationship != nil {
            problems.append(.letProperty(self, name: name))
            return .invalid(problems)
        }
        if let modifier = modifiers.first(where: {
            [.keyword(.lazy), .keyword(.weak), .keyword(.unowned)].contains($0.name.tokenKind)
        }) {
            problems.append(.unsupportedModifier(self, modifier: modifier, name: name))
        }
        let type = binding.typeAnnotation?.type
        if type == nil, binding.initializer == nil {
            problems.append(.missingType(self, binding: binding, name: name))
            return .invalid(problems)
        }
        if !problems.isEmpty { return .invalid(problems) }

        return .persisted(PersistedProperty(
            identifier: identifier.trimmed,
            type: type?.trimmed,
            initializer: binding.initializer?.value.trimmed,
            attribute: attribute,
            relationship: relationship,
            isConstant: isLet
        ))
    }
}

extension PatternBindingSyntax {
    /// True when the binding has a getter (explicit or implicit) or any accessor other than
    /// `willSet`/`didSet`, i.e. it declares no storage of its own.
    var isComputed: Bool {
        switch accessorBlock?.accessors {
        case nil:
            return false
        case .getter:
            return true
        case .accessors(let list):
            return list.contains {
                $0.accessorSpecifier.tokenKind != .keyword(.willSet) && $0.accessorSpecifier.tokenKind != .keyword(.didSet)
            }
        }
    }
}

extension AttributeListSyntax {
    /// The first attribute spelled `@Name` or `@Module.Name`.
    func first(named name: String) -> AttributeSyntax? {
        for element in self {
            if case .attribute(let attribute) = element, attribute.simpleName == name {
                return attribute
            }
        }
        return nil
    }
}

extension AttributeSyntax {
    /// The attribute's name without a module qualifier: `Attribute` for `@OpenSwiftData.Attribute`.
    var simpleName: String {
        if let identifier = attributeName.as(IdentifierTypeSyntax.self) {
            return identifier.name.text
        }
        if let member = attributeName.as(MemberTypeSyntax.self) {
            return member.name.text
        }
        return attributeName.trimmedDescription
    }

    /// The attribute's arguments as a labeled list (empty for `@Attribute` and `@Attribute()`).
    var argumentList: LabeledExprListSyntax {
        if case .argumentList(let list) = arguments { return list }
        return []
    }
}

extension TypeSyntax {
    /// `T?` and `T!`: the types whose stored `var`s start as nil without an initializer. (Swift
    /// does not do this for `Optional<T>` spelled out, so neither do we.)
    var isOptional: Bool {
        self.is(OptionalTypeSyntax.self) || self.is(ImplicitlyUnwrappedOptionalTypeSyntax.self)
    }

    /// The type as it can be written after `as`: `T!` becomes `T?`.
    var castableDescription: String {
        if let iuo = self.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return "\(iuo.wrappedType.trimmedDescription)?"
        }
        return trimmedDescription
    }
}

extension String {
    var withoutBackticks: String {
        if count >= 2, first == "`", last == "`" { return String(dropFirst().dropLast()) }
        return self
    }
}

/// How the generated members are declared, derived from the class.
struct ModelAccess {
    /// `"public "`, `"package "` or `""`.
    let modifier: String
    let isFinal: Bool
    /// The modifier of members a subclass may override: `"open "` in an `open` class, else
    /// ``modifier``.
    let overridable: String

    init(_ declaration: some DeclGroupSyntax) {
        let kinds = declaration.modifiers.map(\.name.tokenKind)
        if kinds.contains(.keyword(.public)) || kinds.contains(.keyword(.open)) {
            modifier = "public "
        } else if kinds.contains(.keyword(.package)) {
            modifier = "package "
        } else {
            modifier = ""
        }
        isFinal = kinds.contains(.keyword(.final))
        overridable = kinds.contains(.keyword(.open)) ? "open " : modifier
    }
}
