import Foundation
import OpenSwiftData
import OpenSwiftDataPostgres
import OpenSwiftDataServer
import TestSupport

@Model final class Folder {
    #Unique<Folder>([\.name])
    var name: String
    @Relationship(deleteRule: .deny, inverse: \Note.folder) var notes: [Note] = []
    init(name: String) { self.name = name }
}

@Model final class Note {
    #Unique<Note>([\.slug])
    var slug: String
    var title: String
    var folder: Folder?
    init(slug: String, title: String, folder: Folder? = nil) {
        self.slug = slug
        self.title = title
        self.folder = folder
    }
}

/// The notes of a server's tests: on the tests' PostgreSQL server when there is one (a schema
/// of their own), else in an SQLite file.
func serverTestContainer() throws -> ModelContainer {
    let schema = Schema([Folder.self, Note.self])
    if let url = PostgresTestServer.url {
        let name = "srv_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        return try ModelContainer(for: schema, configurations: [PostgresConfiguration(schema: schema, url: url, databaseSchema: name)])
    }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("server-\(UUID().uuidString).store")
    return try ModelContainer(for: schema, configurations: [ModelConfiguration(schema: schema, url: file)])
}

/// What a note's routes answer with.
struct NoteReply: Codable, Equatable, Sendable {
    var slug: String
    var title: String
}

/// The handlers both frameworks' routes call, over the request's models.
enum NoteHandlers {
    static func create(_ reply: NoteReply, folder: String?, in models: RequestModelContext) async throws -> NoteReply {
        try await models.perform { context in
            var home: Folder?
            if let folder {
                home = try context.fetch(FetchDescriptor<Folder>(predicate: #Predicate { $0.name == folder })).first ?? Folder(name: folder)
            }
            context.insert(Note(slug: reply.slug, title: reply.title, folder: home))
            try context.save()
            return reply
        }
    }

    static func list(in models: RequestModelContext) async throws -> [NoteReply] {
        try await models.perform { context in
            try context.fetch(FetchDescriptor<Note>(sortBy: [SortDescriptor(\.title)])).map { NoteReply(slug: $0.slug, title: $0.title) }
        }
    }

    static func note(_ slug: String, in models: RequestModelContext) async throws -> NoteReply {
        try await models.perform { context in
            guard let note = try context.fetch(FetchDescriptor<Note>(predicate: #Predicate { $0.slug == slug })).first else {
                throw ModelNotFoundError(Note.self, identifier: slug)
            }
            return NoteReply(slug: note.slug, title: note.title)
        }
    }

    static func rename(_ slug: String, to newSlug: String, in models: RequestModelContext) async throws -> NoteReply {
        try await models.perform { context in
            guard let note = try context.fetch(FetchDescriptor<Note>(predicate: #Predicate { $0.slug == slug })).first else {
                throw ModelNotFoundError(Note.self, identifier: slug)
            }
            note.slug = newSlug
            try context.save()
            return NoteReply(slug: note.slug, title: note.title)
        }
    }

    static func deleteFolder(_ name: String, in models: RequestModelContext) async throws {
        try await models.perform { context in
            guard let folder = try context.fetch(FetchDescriptor<Folder>(predicate: #Predicate { $0.name == name })).first else {
                throw ModelNotFoundError(Folder.self, identifier: name)
            }
            context.delete(folder)
            try context.save()
        }
    }
}
