import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct OpenSwiftDataMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [
        PersistentModelMacro.self,
        PersistedPropertyMacro.self,
        AttributePropertyMacro.self,
        RelationshipPropertyMacro.self,
        TransientPropertyMacro.self,
        UniqueConstraintsMacro.self,
        IndexMacro.self,
        PersistentModelActorMacro.self,
    ]
}
