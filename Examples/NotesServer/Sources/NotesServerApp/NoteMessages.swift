import Foundation
import Hummingbird

/// A note as the API sends it.
public struct NoteReply: ResponseCodable, Equatable, Sendable {
    public var id: UUID
    public var title: String
    public var body: String
    public var pinned: Bool
    public var created: Date
    public var notebook: String?

    init(_ note: Note) {
        id = note.id
        title = note.title
        body = note.body
        pinned = note.pinned
        created = note.created
        notebook = note.notebook?.name
    }
}

/// A note as a client creates it; the notebook by name, made when it is new.
public struct NewNote: Codable, Sendable {
    public var title: String
    public var body: String
    public var notebook: String?

    public init(title: String, body: String, notebook: String? = nil) {
        self.title = title
        self.body = body
        self.notebook = notebook
    }
}

/// What a client changes in a note; the others stay.
public struct NoteChange: Codable, Sendable {
    public var title: String?
    public var body: String?
    public var pinned: Bool?

    public init(title: String? = nil, body: String? = nil, pinned: Bool? = nil) {
        self.title = title
        self.body = body
        self.pinned = pinned
    }
}

/// A page of notes, with how many there are in all.
public struct NotePage: ResponseCodable, Equatable, Sendable {
    public var notes: [NoteReply]
    public var total: Int
}
