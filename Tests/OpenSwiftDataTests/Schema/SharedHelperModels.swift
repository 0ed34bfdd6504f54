import Foundation
import OpenSwiftData

// A flash-card app whose tag model lives outside the version namespaces and points at the live
// card class, while each version lists its own card. Version 2 gives a card its back side.

enum FlashV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Card.self, CardTag.self] }

    @Model final class Card {
        var front: String
        var tags: [CardTag] = []
        init(front: String) { self.front = front }
    }
}

enum FlashV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Card.self, CardTag.self] }

    @Model final class Card {
        var front: String
        var back: String = ""
        var tags: [CardTag] = []
        init(front: String) { self.front = front }
    }
}

typealias LiveCard = FlashV2.Card

@Model final class CardTag {
    var name: String
    @Relationship(inverse: \LiveCard.tags) var cards: [LiveCard] = []
    init(name: String) { self.name = name }
}

/// A third version that reuses version 2's card through a typealias and adds a deck.
enum FlashV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Card.self, CardTag.self, Deck.self] }

    typealias Card = FlashV2.Card

    @Model final class Deck {
        var title: String
        init(title: String) { self.title = title }
    }
}

enum FlashPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [FlashV1.self, FlashV2.self, FlashV3.self] }
    static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: FlashV1.self, toVersion: FlashV2.self),
            .lightweight(fromVersion: FlashV2.self, toVersion: FlashV3.self),
        ]
    }
}
