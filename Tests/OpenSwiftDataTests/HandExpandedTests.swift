import Foundation
import Observation
import Testing
@testable import OpenSwiftData

final class HandFilm: PersistentModel {
    var title: String {
        @storageRestrictions(accesses: _$backingData, initializes: _title)
        init(initialValue) {
            _$backingData.setValue(forKey: \.title, to: initialValue)
            _title = _SwiftDataNoType()
        }
        get {
            _$observationRegistrar.access(self, keyPath: \.title)
            return self.getValue(forKey: \.title)
        }
        set {
            _$observationRegistrar.withMutation(of: self, keyPath: \.title) {
                self.setValue(forKey: \.title, to: newValue)
            }
        }
    }
    private var _title: _SwiftDataNoType
    var year: Int {
        @storageRestrictions(accesses: _$backingData, initializes: _year)
        init(initialValue) {
            _$backingData.setValue(forKey: \.year, to: initialValue)
            _year = _SwiftDataNoType()
        }
        get {
            _$observationRegistrar.access(self, keyPath: \.year)
            return self.getValue(forKey: \.year)
        }
        set {
            _$observationRegistrar.withMutation(of: self, keyPath: \.year) {
                self.setValue(forKey: \.year, to: newValue)
            }
        }
    }
    private var _year: _SwiftDataNoType

    init(title: String, year: Int) {
        self.title = title
        self.year = year
    }

    private var _$backingData: any OpenSwiftData.BackingData<HandFilm> = HandFilm.createBackingData()
    public var persistentBackingData: any OpenSwiftData.BackingData<HandFilm> {
        get { _$backingData }
        set { _$backingData = newValue }
    }
    static var schemaMetadata: [OpenSwiftData.Schema.PropertyMetadata] {
        [
            .init(name: "title", keypath: \HandFilm.title, defaultValue: nil, metadata: nil),
            .init(name: "year", keypath: \HandFilm.year, defaultValue: nil, metadata: nil),
        ]
    }
    init(backingData: any OpenSwiftData.BackingData<HandFilm>) {
        _title = _SwiftDataNoType()
        _year = _SwiftDataNoType()
        self.persistentBackingData = backingData
    }
    private let _$observationRegistrar = Observation.ObservationRegistrar()
    struct _SwiftDataNoType {}
}

@Test func handExpandedModelRoundTrips() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("hand-\(UUID()).store")
    do {
        let container = try ModelContainer(for: HandFilm.self, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        context.insert(HandFilm(title: "Up", year: 2009))
        context.insert(HandFilm(title: "Cars", year: 2006))
        try context.save()
    }
    let container = try ModelContainer(for: HandFilm.self, configurations: ModelConfiguration(url: url))
    let context = ModelContext(container)
    let films = try context.fetch(FetchDescriptor<HandFilm>())
    #expect(films.map(\.title).sorted() == ["Cars", "Up"])
}
