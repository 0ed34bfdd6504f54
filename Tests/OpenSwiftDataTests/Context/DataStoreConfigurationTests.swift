import Foundation
import Testing
import TestSupport
@testable import OpenSwiftData

/// A store kind of an app's own, as SwiftData's custom stores are declared.
struct ArchiveConfiguration: DataStoreConfiguration {
    typealias Store = ArchiveStore
    var name = "archive"
    var schema: Schema?
}

final class ArchiveStore: DataStore {
    typealias Configuration = ArchiveConfiguration
    let identifier = "archive"
    let schema: Schema
    let configuration: ArchiveConfiguration
    init(_ configuration: ArchiveConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        self.configuration = configuration
        schema = configuration.schema ?? Schema([])
    }
}

/// iOS 18's containers of `any DataStoreConfiguration`, `DataStoreConfiguration` and
/// `DefaultStore`.
@Suite struct DataStoreConfigurationTests {
    @Test func theIOS18FormsOpenModelConfigurations() throws {
        let url = temporaryStoreURL("any-configuration")
        let configurations: [any DataStoreConfiguration] = [ModelConfiguration(url: url)]
        do {
            let container = try ModelContainer(for: Schema([Memo.self]), configurations: configurations)
            let context = ModelContext(container)
            context.insert(Memo(title: "kept", code: "K"))
            try context.save()
        }
        let variadic = try ModelContainer(for: Memo.self, configurations: configurations[0])
        #expect(try ModelContext(variadic).fetch(FetchDescriptor<Memo>()).map(\.title) == ["kept"])
        #expect(variadic.configurations.first?.url == url)
    }

    @Test func aModelConfigurationIsADataStoreConfigurationOfDefaultStores() throws {
        let url = temporaryStoreURL("default-store")
        let store = try DefaultStore(ModelConfiguration(schema: Schema([Memo.self]), url: url))
        #expect(store.schema.entities.map(\.name) == ["Memo"])
        #expect(store.configuration.url == url)
        let container = try ModelContainer(for: Memo.self, configurations: ModelConfiguration(url: url))
        let name = try #require(container.configurations.first?.name)
        #expect(container.storeIdentifier(forConfigurationNamed: name) == store.identifier)
        #expect(container.configurationName(forStoreIdentifier: store.identifier) == name)
        #expect(ModelConfiguration.Store.self == DefaultStore.self)

        #expect {
            try DefaultStore(ModelConfiguration(url: temporaryStoreURL("schemaless")))
        } throws: { error in
            (error as? SwiftDataError) == .loadIssueModelContainer && "\(error)".contains("has no schema")
        }
    }

    /// A store OpenSwiftData does not run is refused, named, before anything is opened.
    @Test func anotherKindOfStoreIsRefusedByName() throws {
        let url = temporaryStoreURL("mixed")
        #expect {
            try ModelContainer(for: Schema([Memo.self]), configurations: [ModelConfiguration(url: url), ArchiveConfiguration()])
        } throws: { error in
            (error as? SwiftDataError) == .loadIssueModelContainer && "\(error)".contains("archive opens a ArchiveStore, which a ModelContainer cannot run")
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
