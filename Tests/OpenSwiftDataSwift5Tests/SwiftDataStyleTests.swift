import Foundation
import OpenSwiftData
import Testing

// Model and container code as SwiftData apps write it, compiled in Swift 5 language mode.

@Model
final class Trip {
    @Attribute(.unique) var name: String
    var destination: String
    var startDate: Date
    var endDate: Date
    var tripViews: Int = 0
    @Transient var isSelected = false

    init(name: String, destination: String, startDate: Date = .now, endDate: Date = .distantFuture) {
        self.name = name
        self.destination = destination
        self.startDate = startDate
        self.endDate = endDate
    }
}

@Test func swiftDataStyleCodeCompilesAndRunsInSwift5Mode() throws {
    let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
    let context = ModelContext(container)
    context.insert(Trip(name: "Paris", destination: "France"))
    context.insert(Trip(name: "Kyoto", destination: "Japan"))
    try context.save()
    let trips = try context.fetch(FetchDescriptor<Trip>(
        predicate: #Predicate { $0.destination == "Japan" },
        sortBy: [SortDescriptor(\.name)]))
    #expect(trips.map(\.name) == ["Kyoto"])
}
