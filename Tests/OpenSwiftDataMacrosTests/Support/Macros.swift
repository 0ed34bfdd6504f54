import OpenSwiftDataMacros
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros

/// `@Model` as the `OpenSwiftData` module declares it: the compiler passes these conformances to
/// its extension role when the class does not have them yet.
let model = MacroSpec(type: PersistentModelMacro.self, conformances: ["Observable", "PersistentModel", "Sendable"])

/// Every macro of the plugin, under the names the `OpenSwiftData` module gives them, so a test
/// expands a model the way the compiler does: markers, accessors and peers included.
let allMacros: [String: MacroSpec] = [
    "Model": model,
    "_PersistedProperty": MacroSpec(type: PersistedPropertyMacro.self),
    "Attribute": MacroSpec(type: AttributePropertyMacro.self),
    "Relationship": MacroSpec(type: RelationshipPropertyMacro.self),
    "Transient": MacroSpec(type: TransientPropertyMacro.self),
    "Unique": MacroSpec(type: UniqueConstraintsMacro.self),
    "Index": MacroSpec(type: IndexMacro.self),
]

/// `@ModelActor` as the `OpenSwiftData` module declares it.
let modelActor = MacroSpec(type: PersistentModelActorMacro.self, conformances: ["ModelActor"])

/// ``ModelMetadataOnly`` as the compiler would call it for a class that is not a subclass of
/// another model.
let modelMetadataOnly = MacroSpec(type: ModelMetadataOnly.self, conformances: ["Observable", "PersistentModel", "Sendable"])

/// `@Model` showing only what a class's own properties change: the `@_PersistedProperty` it
/// attaches and `schemaMetadata`. The members and extensions every model gets alike are pinned
/// once, in `ModelExpansionTests` and `ModelAccessTests`, so the test of one property feature
/// shows that feature and little else. Diagnostics are the real macro's.
enum ModelMetadataOnly: MemberAttributeMacro, MemberMacro {
    static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        try PersistentModelMacro.expansion(
            of: node, attachedTo: declaration, providingAttributesFor: member, in: context)
    }

    static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try PersistentModelMacro.expansion(
            of: node, providingMembersOf: declaration, conformingTo: protocols, in: context
        ).filter { $0.as(VariableDeclSyntax.self)?.bindings.first?.pattern.trimmedDescription == "schemaMetadata" }
    }
}

/// ``ModelMetadataOnly`` that also shows the superclass check a class with an inheritance
/// clause gets.
enum ModelMetadataOnlyWithChecks: MemberMacro {
    static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try PersistentModelMacro.expansion(
            of: node, providingMembersOf: declaration, conformingTo: protocols, in: context
        ).filter { $0.as(TypeAliasDeclSyntax.self) != nil }
    }
}
