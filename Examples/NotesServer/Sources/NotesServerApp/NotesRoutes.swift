import Foundation
import Hummingbird
import OpenSwiftData
import OpenSwiftDataHummingbird

/// The API: notes created, listed (sorted, paged, searched), read, changed and deleted, each
/// in a notebook.
///
/// - `POST /notes` `{"title", "body", "notebook"?}` → 201 and the note
/// - `GET /notes?sort=title|created&search=…&page=1&per=20` → a page and the total
/// - `GET /notes/{id}`, `PATCH /notes/{id}` `{"title"?, "body"?, "pinned"?}`, `DELETE /notes/{id}`
/// - `GET /notebooks/{name}/notes`, `DELETE /notebooks/{name}` (its notes with it)
func addNotesRoutes(to router: Router<BasicModelRequestContext>) {
    router.post("notes") { request, context -> EditedResponse<NoteReply> in
        let new = try await request.decode(as: NewNote.self, context: context)
        let note = try await context.modelContext.perform { models in
            var notebook: Notebook?
            if let name = new.notebook {
                notebook = try models.fetch(FetchDescriptor<Notebook>(predicate: #Predicate { $0.name == name })).first ?? Notebook(name: name)
            }
            let note = Note(title: new.title, body: new.body, notebook: notebook)
            models.insert(note)
            try models.save()
            return NoteReply(note)
        }
        return EditedResponse(status: .created, response: note)
    }

    router.get("notes") { request, context -> NotePage in
        let query = request.uri.queryParameters
        let search = query["search"].map(String.init)
        let byTitle = query["sort"] != "created"
        let per = min(max(Int(query["per"] ?? "") ?? 20, 1), 100)
        let page = max(Int(query["page"] ?? "") ?? 1, 1)
        return try await context.modelContext.perform { models in
            var descriptor = FetchDescriptor<Note>(
                sortBy: byTitle ? [SortDescriptor(\.title)] : [SortDescriptor(\.created, order: .reverse)])
            if let search {
                descriptor.predicate = #Predicate { $0.title.localizedStandardContains(search) || $0.body.localizedStandardContains(search) }
            }
            let total = try models.fetchCount(descriptor)
            descriptor.fetchOffset = (page - 1) * per
            descriptor.fetchLimit = per
            return NotePage(notes: try models.fetch(descriptor).map(NoteReply.init), total: total)
        }
    }

    router.get("notes/:id") { _, context -> NoteReply in
        let id = try context.parameters.require("id", as: UUID.self)
        return try await context.modelContext.perform { models in NoteReply(try note(id, in: models)) }
    }

    router.patch("notes/:id") { request, context -> NoteReply in
        let id = try context.parameters.require("id", as: UUID.self)
        let change = try await request.decode(as: NoteChange.self, context: context)
        return try await context.modelContext.perform { models in
            let note = try note(id, in: models)
            if let title = change.title { note.title = title }
            if let body = change.body { note.body = body }
            if let pinned = change.pinned { note.pinned = pinned }
            try models.save()
            return NoteReply(note)
        }
    }

    router.delete("notes/:id") { _, context -> HTTPResponse.Status in
        let id = try context.parameters.require("id", as: UUID.self)
        try await context.modelContext.perform { models in
            models.delete(try note(id, in: models))
            try models.save()
        }
        return .noContent
    }

    router.get("notebooks/:name/notes") { _, context -> [NoteReply] in
        let name = try context.parameters.require("name")
        return try await context.modelContext.perform { models in
            try notebook(name, in: models).notes.sorted { $0.title < $1.title }.map(NoteReply.init)
        }
    }

    router.delete("notebooks/:name") { _, context -> HTTPResponse.Status in
        let name = try context.parameters.require("name")
        try await context.modelContext.perform { models in
            models.delete(try notebook(name, in: models))
            try models.save()
        }
        return .noContent
    }
}

private func note(_ id: UUID, in models: ModelContext) throws -> Note {
    guard let note = try models.fetch(FetchDescriptor<Note>(predicate: #Predicate { $0.id == id })).first else {
        throw ModelNotFoundError(Note.self, identifier: id.uuidString)
    }
    return note
}

private func notebook(_ name: String, in models: ModelContext) throws -> Notebook {
    guard let notebook = try models.fetch(FetchDescriptor<Notebook>(predicate: #Predicate { $0.name == name })).first else {
        throw ModelNotFoundError(Notebook.self, identifier: name)
    }
    return notebook
}
