import Foundation
import Testing
@testable import OpenSwiftData

/// What cannot be sorted in SQL fails with `SwiftDataError.unsupportedSortDescriptor` naming
/// the key path.
@Suite struct SortUnsupportedTests {
    private func failure(_ descriptors: [SortDescriptor<QuerySample>]) -> String {
        let message = unsupportedExplanation { _ = try SortTranslator.sql(for: descriptors, columns: QueryFixtures.columns) }
        #expect(message != nil)
        return message ?? ""
    }

    @Test func aKeyPathThatIsNotStored() throws {
        let message = failure([SortDescriptor(\.doubledYear)])
        #expect(message.contains(#"\QuerySample."#))
        #expect(message.contains("does not name a stored attribute of OpenSwiftDataTests.QuerySample"))
        #expect(throws: SwiftDataError.unsupportedSortDescriptor) {
            try SortTranslator.sql(for: [SortDescriptor(\QuerySample.year), SortDescriptor(\QuerySample.doubledYear)], columns: QueryFixtures.columns)
        }
    }

    @Test func anEnumWhoseOrderIsNotItsRawValues() throws {
        let message = failure([SortDescriptor(\.shuffled)])
        #expect(message.contains(#"\QuerySample.shuffled (column "shuffled")"#))
        #expect(message.contains("does not follow its raw values"))
    }
}
