import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Model`: turns a class into a persistent model.
///
/// - member-attribute role: attaches `@_PersistedProperty` to each stored `var` that is persisted;
/// - member role: adds the backing data, `schemaMetadata`, `init(backingData:)`, the observation
///   registrar and its `access`/`withMutation` helpers, and reports everything `@Model` cannot
///   persist;
/// - extension role: adds the `PersistentModel` and `Observable` conformances (nonisolated) and an
///   unavailable `Sendable` one.
///
/// A subclass of a `@Model` class (iOS 26), which the compiler says by not asking for the
/// `PersistentModel` conformance it inherits, gets members of its own beside the inherited ones:
/// backing data its properties' init accessors fill before `super.init` (when the inherited
/// backing data does not exist yet), an override of `persistentBackingData` that moves those
/// values into the inherited backing data the first time it is asked for, its own properties in
/// an override of `schemaMetadata`, and `init(backingData:)` calling `super`. A class that is not
/// final declares `schemaMetadata` as a `class var` for its subclasses to override.
public struct PersistentModelMacro {}

// MARK: - Member attributes

extension PersistentModelMacro: MemberAttributeMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        guard declaration.is(ClassDeclSyntax.self),
              let property = member.as(VariableDeclSyntax.self),
              case .persisted(let persisted) = property.modelMemberKind, !persisted.isConstant
        else { return [] }
        return [AttributeSyntax(attributeName: IdentifierTypeSyntax(name: .identifier(MarkerName.persistedProperty)))]
    }
}

// MARK: - Members

extension PersistentModelMacro: MemberMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let classDecl = declaration.as(ClassDeclSyntax.self) else {
            diagnoseNotAClass(declaration, in: context)
            return []
        }

        let className = classDecl.name.text
        let access = ModelAccess(classDecl)
        let isSubclass = !protocols.contains { $0.trimmedDescription.split(separator: ".").last == "PersistentModel" }
        var properties: [PersistedProperty] = []
        var constraints: [String] = []

        for item in classDecl.memberBlock.members {
            if let variable = item.decl.as(VariableDeclSyntax.self) {
                switch variable.modelMemberKind {
                case .persisted(let property):
                    properties.append(property)
                case .invalid(let problems):
                    for problem in problems { context.diagnose(problem.diagnostic) }
                case .ignored:
                    break
                }
            } else if let expansion = item.decl.as(MacroExpansionDeclSyntax.self),
                      let entry = schemaConstraintEntry(expansion, className: className) {
                constraints.append(entry)
            } else if let ifConfig = item.decl.as(IfConfigDeclSyntax.self) {
                warnAboutConditionalProperties(in: ifConfig, context: context)
            }
        }

        let metadataEntries = properties.map { metadataEntry(for: $0, className: className) } + constraints
        let metadataKind = isSubclass ? "override class" : access.isFinal ? "static" : "class"
        var schemaMetadata = "\(access.overridable)\(metadataKind) var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {\n"
        if metadataEntries.isEmpty {
            schemaMetadata += "    return []\n"
        } else {
            schemaMetadata += "    return [\n"
            schemaMetadata += metadataEntries.map { "        \($0),\n" }.joined()
            schemaMetadata += "    ]\n"
        }
        schemaMetadata += "}"

        let initializePeers = properties.map { property in
            let keyPath = "\\\(className).\(property.identifier.text)"
            if !property.isConstant { return "_\(property.name) = _SwiftDataNoType()\n" }
            return isSubclass
                ? "self.\(property.identifier.text) = OpenSwiftData._subclassValue(forKey: \(keyPath), in: backingData)\n"
                : "self.\(property.identifier.text) = backingData.getValue(forKey: \(keyPath))\n"
        }.joined()
        let required = access.isFinal ? "" : "required "
        let superclass = classDecl.inheritanceClause?.inheritedTypes.first?.type.trimmedDescription
        let keyPaths = isSubclass || !access.isFinal
            ? keyPathMembers(className: className, access: access, superclass: isSubclass ? superclass : nil, properties: properties)
            : []
        if isSubclass {
            return subclassMembers(
                className: className, access: access, schemaMetadata: schemaMetadata, initializePeers: initializePeers)
                + keyPaths
        }
        // The first type a class that is not a model's subclass inherits from must be a
        // protocol: were it a class, it would be one that is not a `@Model` class, which
        // nothing can persist. `any` of a class does not compile, and names this member.
        let superclassCheck: [DeclSyntax] = superclass.map {
            ["private typealias _$aModelClassCanOnlySubclassAModelClass = (any \(raw: $0))?"]
        } ?? []

        // Every property read and write reaches both the backing data and the observation
        // registrar, and `@exclusivity(unchecked)` spares each of them the runtime's access
        // check. The backing data is replaced only through `persistentBackingData`'s setter,
        // never during a read or write. The registrar is created on the first read
        // (`ModelObservationRegistrar`), so it is a `var`; its accessors are nonisolated, as
        // SwiftData's are, and only ever reach it for the length of one call into Observation,
        // which `nonisolated(unsafe)` allows in a main-actor-isolated class.
        return superclassCheck + keyPaths + [
            """
            @Transient
            @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<\(raw: className)> = \(raw: className).createBackingData()
            """,
            """
            \(raw: access.overridable)var persistentBackingData: any OpenSwiftData.BackingData<\(raw: className)> {
                get {
                    _$backingData
                }
                set {
                    _$backingData = newValue
                }
            }
            """,
            DeclSyntax(stringLiteral: schemaMetadata),
            """
            \(raw: access.modifier)\(raw: required)init(backingData: any OpenSwiftData.BackingData<\(raw: className)>) {
                \(raw: initializePeers)self.persistentBackingData = backingData
            }
            """,
        ] + ownMembers(className: className)
    }

    /// What every `@Model` class declares for itself, a subclass too (the superclass's are
    /// private to it): the observation registrar its accessors use, `access` and `withMutation`
    /// over its own key paths, and the placeholder type of its properties' peers.
    static func ownMembers(className: String) -> [DeclSyntax] {
        [
            """
            @Transient
            @exclusivity(unchecked) private nonisolated(unsafe) var _$observationRegistrar = OpenSwiftData.ModelObservationRegistrar()
            """,
            """
            internal nonisolated func access<_M>(keyPath: KeyPath<\(raw: className), _M>) {
                _$observationRegistrar.access(self, keyPath: keyPath)
            }
            """,
            """
            internal nonisolated func withMutation<_M, _MR>(keyPath: KeyPath<\(raw: className), _M>, _ mutation: () throws -> _MR) rethrows -> _MR {
                try _$observationRegistrar.withMutation(of: self, keyPath: keyPath, mutation)
            }
            """,
            """
            struct _SwiftDataNoType {
            }
            """,
        ]
    }

    /// The key paths of a class that may be subclassed, as a subclass's predicates and sorts
    /// write them (`\BusinessTrip.name` for a property `Trip` declares, a key path unequal to
    /// `\Trip.name`): `_$keyPaths(rootedAt:)` gives the class's persisted properties, its
    /// superclass's first, rooted at any subclass, and `_$inheritedKeyPaths` those a class
    /// inherits, rooted at itself.
    static func keyPathMembers(
        className: String, access: ModelAccess, superclass: String?, properties: [PersistedProperty]
    ) -> [DeclSyntax] {
        let own = properties.map { "\\_S.\($0.identifier.text)" }.joined(separator: ", ")
        let inherited = superclass.map { "\($0)._$keyPaths(rootedAt: root) + " } ?? ""
        let inheritedHere = superclass.map { "\($0)._$keyPaths(rootedAt: self)" } ?? "[]"
        return [
            """
            \(raw: access.modifier)static func _$keyPaths<_S: \(raw: className)>(rootedAt root: _S.Type) -> [AnyKeyPath] {
                \(raw: inherited)[\(raw: own)]
            }
            """,
            """
            \(raw: access.overridable)\(raw: superclass == nil ? "" : "override ")class var _$inheritedKeyPaths: [AnyKeyPath] {
                \(raw: inheritedHere)
            }
            """,
        ]
    }

    /// The members of a subclass of a `@Model` class: its own backing data for the values its
    /// init accessors set before `super.init`, moved into the inherited backing data by the
    /// first read of `persistentBackingData` (before anything else can use either), and the
    /// class's own registrar, metadata and `init(backingData:)`.
    static func subclassMembers(
        className: String, access: ModelAccess, schemaMetadata: String, initializePeers: String
    ) -> [DeclSyntax] {
        [
            """
            @Transient
            @exclusivity(unchecked) private var _$backingData: any OpenSwiftData.BackingData<\(raw: className)> = \(raw: className).createBackingData()
            """,
            """
            @Transient
            private var _$initialValuesMoved = false
            """,
            """
            \(raw: access.overridable)override var persistentBackingData: any OpenSwiftData.BackingData<Root> {
                get {
                    if !_$initialValuesMoved {
                        _$initialValuesMoved = true
                        OpenSwiftData._moveSubclassInitialValues(_$backingData, into: super.persistentBackingData, of: self)
                    }
                    return super.persistentBackingData
                }
                set {
                    _$initialValuesMoved = true
                    super.persistentBackingData = newValue
                }
            }
            """,
            DeclSyntax(stringLiteral: schemaMetadata),
            """
            \(raw: access.modifier)required init(backingData: any OpenSwiftData.BackingData<Root>) {
                \(raw: initializePeers)_$initialValuesMoved = true
                super.init(backingData: backingData)
            }
            """,
        ] + ownMembers(className: className)
    }

    /// Members inside `#if` are not given to the member-attribute role, so a stored `var` there
    /// would silently stay plain storage. Say so.
    static func warnAboutConditionalProperties(in ifConfig: IfConfigDeclSyntax, context: some MacroExpansionContext) {
        for clause in ifConfig.clauses {
            guard case .decls(let members) = clause.elements else { continue }
            for member in members {
                if let variable = member.decl.as(VariableDeclSyntax.self),
                   case .persisted(let property) = variable.modelMemberKind,
                   let pattern = variable.bindings.first?.pattern {
                    context.diagnose(Diagnostic(
                        node: pattern,
                        message: ModelDiagnostic.insideIfConfig(name: property.name)))
                } else if let nested = member.decl.as(IfConfigDeclSyntax.self) {
                    warnAboutConditionalProperties(in: nested, context: context)
                }
            }
        }
    }

    /// One `Schema.PropertyMetadata(...)` for a persisted property.
    static func metadataEntry(for property: PersistedProperty, className: String) -> String {
        // The initial value as the property's type; with no type written, the value alone is
        // what Swift infers the property's type from, so it needs no cast.
        let defaultValue = property.initializer.map { initializer in
            property.type.map { "(\(initializer.trimmedDescription) as \($0.castableDescription))" }
                ?? "(\(initializer.trimmedDescription))"
        } ?? "nil"

        let marker: String
        if let attribute = property.attribute {
            marker = "OpenSwiftData.Schema.Attribute(\(argumentsText(attribute.argumentList)))"
        } else if let relationship = property.relationship {
            marker = relationshipMarker(relationship.argumentList)
        } else {
            marker = "nil"
        }

        return "OpenSwiftData.Schema.PropertyMetadata(name: \"\(property.name)\", "
            + "keypath: \\\(className).\(property.identifier.text), defaultValue: \(defaultValue), metadata: \(marker))"
    }

    /// `@Relationship(...)` arguments as a `Schema.Relationship`; an explicit `inverse: nil` asks
    /// for a one-way relationship, which "argument omitted" cannot express, so it is wrapped.
    static func relationshipMarker(_ arguments: LabeledExprListSyntax) -> String {
        let isExplicitNilInverse: (LabeledExprSyntax) -> Bool = {
            $0.label?.text == "inverse" && $0.expression.is(NilLiteralExprSyntax.self)
        }
        if arguments.contains(where: isExplicitNilInverse) {
            let others = arguments.filter { !isExplicitNilInverse($0) }
            return "OpenSwiftData.Schema.Relationship._explicitlyUnidirectional("
                + "OpenSwiftData.Schema.Relationship(\(argumentsText(others))))"
        }
        return "OpenSwiftData.Schema.Relationship(\(argumentsText(arguments)))"
    }

    /// `#Unique<T>(...)` / `#Index<T>(...)` in the class body, as a schema metadata entry.
    static func schemaConstraintEntry(_ expansion: MacroExpansionDeclSyntax, className: String) -> String? {
        let kind: (name: String, type: String)
        switch expansion.macroName.text {
        case "Unique": kind = ("_$unique", "Unique")
        case "Index": kind = ("_$index", "Index")
        default: return nil
        }
        return "OpenSwiftData.Schema.PropertyMetadata(name: \"\(kind.name)\", keypath: \\\(className).self, "
            + "defaultValue: nil, metadata: OpenSwiftData.Schema.\(kind.type)<\(className)>(\(argumentsText(expansion.arguments))))"
    }

    /// Arguments re-spelled on one line: `label: value, value`.
    static func argumentsText(_ arguments: some Sequence<LabeledExprSyntax>) -> String {
        arguments.map { argument in
            let value = argument.expression.trimmedDescription
            return argument.label.map { "\($0.text): \(value)" } ?? value
        }.joined(separator: ", ")
    }

    private static func diagnoseNotAClass(_ declaration: some DeclGroupSyntax, in context: some MacroExpansionContext) {
        let keyword = declaration.introducer
        let name = declaration.nameForDiagnostics

        // A struct or an actor becomes a class by changing its keyword; enums and protocols don't.
        var fixIts: [FixIt] = []
        if declaration.is(StructDeclSyntax.self) || declaration.is(ActorDeclSyntax.self) {
            fixIts.append(FixIt(
                message: ModelFixIt(message: "replace '\(keyword.text)' with 'final class'"),
                changes: [.replaceText(
                    range: keyword.positionAfterSkippingLeadingTrivia..<keyword.endPositionBeforeTrailingTrivia,
                    with: "final class",
                    in: Syntax(keyword))]))
        }
        context.diagnose(Diagnostic(node: keyword, message: ModelDiagnostic.notAClass(name: name), fixIts: fixIts))
    }
}

// MARK: - Extensions

extension PersistentModelMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let classDecl = declaration.as(ClassDeclSyntax.self) else { return [] }
        // The compiler passes only the protocols the class does not conform to yet.
        //
        // The conformances are spelled `nonisolated` (SE-0470). Without it, in a module built with
        // MainActor default isolation (new Xcode 26 projects) they are inferred main-actor
        // isolated, which `PersistentModel: SendableMetatype` rejects. Elsewhere it changes nothing.
        let requested = Set(protocols.map { $0.trimmedDescription.split(separator: ".").last.map(String.init) ?? "" })
        let typeName = type.trimmedDescription
        let className = classDecl.name.text
        var extensions: [ExtensionDeclSyntax] = []

        if requested.contains("PersistentModel") {
            extensions.append(try ExtensionDeclSyntax("extension \(raw: typeName): nonisolated OpenSwiftData.PersistentModel {}"))
        }
        if requested.contains("Observable") {
            extensions.append(try ExtensionDeclSyntax("extension \(raw: typeName): nonisolated Observation.Observable {}"))
        }
        if requested.contains("Sendable") {
            extensions.append(try ExtensionDeclSyntax(
                """
                @available(*, unavailable, message: "PersistentModels are not Sendable, consider utilizing a ModelActor or use \(raw: className)'s persistentModelID instead")
                extension \(raw: typeName): Sendable {}
                """))
        }
        return extensions
    }
}
