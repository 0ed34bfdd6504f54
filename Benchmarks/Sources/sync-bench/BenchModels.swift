import Foundation
import SwiftData

/// The synced models of the sync benchmark: notes in folders.
@Model final class BenchFolder {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \BenchNote.folder) var notes: [BenchNote] = []
    init(name: String) { self.name = name }
}

@Model final class BenchNote {
    var title: String
    var body: String
    var updatedAt: Date
    var isPinned: Bool
    var folder: BenchFolder?
    init(title: String, body: String, updatedAt: Date = .now, isPinned: Bool = false) {
        self.title = title
        self.body = body
        self.updatedAt = updatedAt
        self.isPinned = isPinned
    }
}

enum BenchModels {
    static let all: [any PersistentModel.Type] = [BenchFolder.self, BenchNote.self]
}
