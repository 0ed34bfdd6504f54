import Foundation
import OpenSwiftData

/// The notes server's models: notebooks holding notes.
public enum NotesSchemaV1: VersionedSchema {
    public static let versionIdentifier = Schema.Version(1, 0, 0)
    public static var models: [any PersistentModel.Type] { [Notebook.self, Note.self] }

    @Model public final class Notebook {
        #Unique<Notebook>([\.id])
        public var id: UUID
        public var name: String
        @Relationship(deleteRule: .cascade, inverse: \Note.notebook) public var notes: [Note] = []

        public init(name: String) {
            id = UUID()
            self.name = name
        }
    }

    @Model public final class Note {
        #Unique<Note>([\.id])
        #Index<Note>([\.title], [\.created])
        public var id: UUID
        public var title: String
        public var body: String
        public var pinned: Bool = false
        public var created: Date
        public var notebook: Notebook?

        public init(title: String, body: String, notebook: Notebook?) {
            id = UUID()
            self.title = title
            self.body = body
            created = Date()
            self.notebook = notebook
        }
    }
}

public typealias Notebook = NotesSchemaV1.Notebook
public typealias Note = NotesSchemaV1.Note

/// How the notes' stores migrate: one version so far; the next one adds a stage here.
public enum NotesMigrationPlan: SchemaMigrationPlan {
    public static var schemas: [any VersionedSchema.Type] { [NotesSchemaV1.self] }
    public static var stages: [MigrationStage] { [] }
}
