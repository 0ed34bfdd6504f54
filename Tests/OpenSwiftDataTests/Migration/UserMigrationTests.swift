import Foundation
import Testing
@testable import OpenSwiftData

// The seeds' user name split: name → firstName and lastName.

enum UserSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [User.self] }
    @Model final class User {
        var name: String
        var email: String
        init(name: String, email: String) {
            self.name = name
            self.email = email
        }
    }
}

enum UserSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [User.self] }
    @Model final class User {
        var firstName: String
        var lastName: String
        var email: String
        init(firstName: String, lastName: String, email: String) {
            self.firstName = firstName
            self.lastName = lastName
            self.email = email
        }
    }
}

enum UserMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [UserSchemaV1.self, UserSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.transform(fromVersion: UserSchemaV1.self, toVersion: UserSchemaV2.self, model: UserSchemaV1.User.self, to: UserSchemaV2.User.self) { old, new in
            let parts = old.name.split(separator: " ", maxSplits: 1).map(String.init)
            new.firstName = parts.first ?? ""
            new.lastName = parts.count > 1 ? parts[1] : ""
        }]
    }
}

/// The name split in batches of two, where the first user's step deletes a user of the next
/// batch: old and new models must still pair by row.
enum UserPruningPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [UserSchemaV1.self, UserSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.transform(fromVersion: UserSchemaV1.self, toVersion: UserSchemaV2.self,
                    model: UserSchemaV1.User.self, to: UserSchemaV2.User.self, batchSize: 2) { old, new in
            let parts = old.name.split(separator: " ", maxSplits: 1).map(String.init)
            new.firstName = parts.first ?? ""
            new.lastName = parts.count > 1 ? parts[1] : ""
            if old.email == "ada@x", let context = new.modelContext {
                for user in try context.fetch(FetchDescriptor<UserSchemaV2.User>(predicate: #Predicate { $0.email == "cy@x" })) {
                    context.delete(user)
                }
            }
        }]
    }
}

extension MigrationTests {
    @Test func userNamesSplitIntoFirstAndLast() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: UserSchemaV1.User.self) { context in
            context.insert(UserSchemaV1.User(name: "Ada Lovelace", email: "ada@x"))
            context.insert(UserSchemaV1.User(name: "Plato", email: "plato@x"))
        }
        let container = try ModelContainer(for: UserSchemaV2.User.self, migrationPlan: UserMigrationPlan.self, configurations: ModelConfiguration(url: url))
        let users = try ModelContext(container).fetch(FetchDescriptor<UserSchemaV2.User>(sortBy: [SortDescriptor(\.email)]))
        #expect(users.map(\.firstName) == ["Ada", "Plato"])
        #expect(users.map(\.lastName) == ["Lovelace", ""])
        #expect(users.map(\.email) == ["ada@x", "plato@x"])
    }

    @Test func aTransformThatDeletesALaterRowStillPairsOldAndNewByRow() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: UserSchemaV1.User.self) { context in
            for (name, email) in [("Ada Lovelace", "ada@x"), ("Bob Kahn", "bob@x"), ("Cy Young", "cy@x"), ("Di Fossey", "di@x")] {
                context.insert(UserSchemaV1.User(name: name, email: email))
            }
        }
        let container = try ModelContainer(for: UserSchemaV2.User.self, migrationPlan: UserPruningPlan.self, configurations: ModelConfiguration(url: url))
        let users = try ModelContext(container).fetch(FetchDescriptor<UserSchemaV2.User>(sortBy: [SortDescriptor(\.email)]))
        #expect(users.map(\.email) == ["ada@x", "bob@x", "di@x"])
        #expect(users.map(\.firstName) == ["Ada", "Bob", "Di"])
        #expect(users.map(\.lastName) == ["Lovelace", "Kahn", "Fossey"])
    }
}
