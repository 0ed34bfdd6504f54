import Foundation
import Testing
@testable import OpenSwiftData

@Model final class Chore {
    var title: String
    var minutes: Int
    init(title: String, minutes: Int) {
        self.title = title
        self.minutes = minutes
    }
}

@Model final class Ticket {
    var id: UUID
    var title: String
    init(id: UUID, title: String) {
        self.id = id
        self.title = title
    }
}

/// A model's identity in sorts and predicates: `persistentModelID` (and `id`, which is it for a
/// model that declares no `id`) sorts as Swift sorts identifiers and tests membership in SQL.
@Suite struct ModelIdentityQueryTests {
    private func chores() throws -> (ModelContext, [Chore]) {
        let context = ModelContext(try ModelContainer(for: Chore.self, configurations: ModelConfiguration(url: temporaryStoreURL())))
        let chores = [("dishes", 10), ("laundry", 30), ("bins", 10), ("hoover", 30), ("plants", 5)].map { Chore(title: $0.0, minutes: $0.1) }
        for chore in chores { context.insert(chore) }
        try context.save()
        return (context, chores)
    }

    @Test func persistentModelIDBreaksTiesAsSwiftOrdersIdentifiers() throws {
        let (context, chores) = try chores()
        for order in [SortOrder.forward, .reverse] {
            let sorts = [SortDescriptor(\Chore.minutes), SortDescriptor(\Chore.persistentModelID, order: order)]
            let fetched = try context.fetch(FetchDescriptor<Chore>(sortBy: sorts))
            #expect(fetched.map(\.title) == chores.sorted(using: sorts).map(\.title))
            #expect(try context.fetch(FetchDescriptor<Chore>(sortBy: [SortDescriptor(\.persistentModelID, order: order)])).map(\.persistentModelID)
                == chores.map(\.persistentModelID).sorted { order == .forward ? $0 < $1 : $0 > $1 })
        }
        let byID = try context.fetch(FetchDescriptor<Chore>(sortBy: [SortDescriptor(\.id, order: .reverse)]))
        #expect(byID.map(\.title) == ["plants", "hoover", "bins", "laundry", "dishes"])
    }

    @Test func capturedIdentifiersSelectTheirModels() throws {
        let (context, chores) = try chores()
        let ids = [chores[1].persistentModelID, chores[3].persistentModelID]
        let viaID = try context.fetch(FetchDescriptor<Chore>(predicate: #Predicate { ids.contains($0.id) }, sortBy: [SortDescriptor(\.title)]))
        #expect(viaID.map(\.title) == ["hoover", "laundry"])
        let viaPersistentModelID = try context.fetch(FetchDescriptor<Chore>(predicate: #Predicate { !ids.contains($0.persistentModelID) }))
        #expect(viaPersistentModelID.count == 3)
        let one = chores[4].id
        #expect(try context.fetch(FetchDescriptor<Chore>(predicate: #Predicate { $0.id == one })).map(\.title) == ["plants"])
    }

    @Test func aModelWithItsOwnIdQueriesThatAttribute() throws {
        let context = ModelContext(try ModelContainer(for: Ticket.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
        let first = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
        let second = UUID(uuidString: "00000000-0000-0000-0000-000000000002")!
        context.insert(Ticket(id: second, title: "b"))
        context.insert(Ticket(id: first, title: "a"))
        try context.save()
        let wanted = [first]
        #expect(try context.fetch(FetchDescriptor<Ticket>(predicate: #Predicate { wanted.contains($0.id) })).map(\.title) == ["a"])
        #expect(try context.fetch(FetchDescriptor<Ticket>(sortBy: [SortDescriptor(\.id)])).map(\.title) == ["a", "b"])
    }
}
