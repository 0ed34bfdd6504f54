import Foundation
import Testing
@testable import OpenSwiftData

/// What cannot be translated fails with `SwiftDataError.unsupportedPredicate`, whose text names
/// the expression's full type and, where one is involved, the key path.
@Suite struct PredicateUnsupportedTests {
    private func failure(_ predicate: Predicate<QuerySample>) -> String {
        let message = unsupportedExplanation { _ = try PredicateTranslator.sql(for: predicate, columns: QueryFixtures.columns) }
        #expect(message != nil, "expected the predicate to be rejected")
        return message ?? ""
    }

    @Test func anExpressionWithoutTranslationIsNamedByItsFullType() throws {
        let message = failure(#Predicate<QuerySample> { $0.tags.max() == "toys" })
        #expect(message.contains(
            "PredicateExpressions.SequenceMaximum<PredicateExpressions.KeyPath<PredicateExpressions.Variable<OpenSwiftDataTests.QuerySample>, Array<String>>>"))
        // Over captured values `max()` is evaluated in Swift first; over the model's, refused.
        #expect(message.contains("max() translates only over values captured from outside the predicate"))
        #expect(throws: SwiftDataError.unsupportedPredicate) {
            try PredicateTranslator.sql(for: #Predicate<QuerySample> { $0.tags.max() == "toys" }, columns: QueryFixtures.columns)
        }
    }

    @Test func closuresOverSequencesAndTypeChecks() throws {
        let message1 = failure(#Predicate<QuerySample> { $0.tags.contains { $0 == "toys" } })
        #expect(message1.contains("PredicateExpressions.SequenceContainsWhere<"))
        let message2 = failure(#Predicate<QuerySample> { $0.tags.allSatisfy { $0.isEmpty } })
        #expect(message2.contains("PredicateExpressions.SequenceAllSatisfy<"))
        let message3 = failure(#Predicate<QuerySample> { $0.tags.filter { $0.isEmpty }.count > 1 })
        #expect(message3.contains("PredicateExpressions.Filter<"))
    }

    @Test func aKeyPathThatIsNotStored() throws {
        let message = failure(#Predicate<QuerySample> { $0.doubledYear > 3990 })
        // Linux prints key paths to computed properties without their name.
        #expect(message.contains(#"\QuerySample."#))
        #expect(message.contains("(Int)> (a computed property"))
        #expect(message.contains("does not name a stored attribute of OpenSwiftDataTests.QuerySample"))
        #expect(message.contains("PredicateExpressions.KeyPath<PredicateExpressions.Variable<OpenSwiftDataTests.QuerySample>, Int>"))
    }

    @Test func jsonColumnsCompareOnlyWithNil() throws {
        let tags = ["toys"]
        let tagsMessage = failure(#Predicate<QuerySample> { $0.tags == tags })
        #expect(tagsMessage.contains(#"\QuerySample.tags (column "tags") (Array<String>, stored as JSON) can only be compared with nil"#))
        #expect(tagsMessage.contains("PredicateExpressions.Equal<"))
        let metadata = SampleMetadata(source: "imdb")
        let message4 = failure(#Predicate<QuerySample> { $0.metadata == metadata })
        #expect(message4.contains(#"\QuerySample.metadata"#))
        // Decimals compare in SQL (DecimalPredicateTests).
        let price = Decimal(string: "1.5")!
        try expectSameSelection(#Predicate<QuerySample> { $0.price == price })
        try expectSameSelection(#Predicate<QuerySample> { $0.price > price })
    }

    @Test func searchingInsideJSON() throws {
        // Arrays of values are searched with SQLite's JSON functions (ValueArrayPredicateTests);
        // the members of another Codable value are not.
        try expectSameSelection(#Predicate<QuerySample> { $0.tags.contains("toys") })
        try expectSameSelection(#Predicate<QuerySample> { $0.tags.isEmpty })
        let message7 = failure(#Predicate<QuerySample> { $0.metadata?.source == "imdb" })
        #expect(message7.contains("which the store keeps as JSON"))
    }

    @Test func anEnumWhoseOrderIsNotItsRawValues() throws {
        let second = SampleShuffled.second
        let message = failure(#Predicate<QuerySample> { $0.shuffled < second })
        #expect(message.contains("the < of OpenSwiftDataTests.SampleShuffled does not follow its raw values"))
        // Equality is fine.
        try expectSameSelection(#Predicate<QuerySample> { $0.shuffled == second })
    }

    @Test func arithmeticWithoutAnExactSQLMeaning() throws {
        let message9 = failure(#Predicate<QuerySample> { $0.uint64 + 1 > 5 })
        #expect(message9.contains("arithmetic on UInt64"))
        let price = Decimal(1)
        try expectSameSelection(#Predicate<QuerySample> { $0.price + price > price * 2 })
    }

    @Test func membersWithoutSQL() throws {
        let message = failure(#Predicate<QuerySample> { $0.title.utf8.count > 3 })
        #expect(message.contains("PredicateExpressions.KeyPath<PredicateExpressions.KeyPath<PredicateExpressions.Variable<OpenSwiftDataTests.QuerySample>, String>, String.UTF8View>"))
        #expect(message.contains("(UTF8View)> (a computed property"))
        #expect(message.contains("has no SQL equivalent"))
    }

    @Test func regexes() throws {
        let message11 = failure(#Predicate<QuerySample> { $0.title.contains(/Toy/) })
        #expect(message11.contains("PredicateExpressions.StringContainsRegex<"))
    }

    @Test func typeNamesReadAsWritten() {
        #expect(readableTypeName(Optional<Swift.Array<Foundation.Date>>.self) == "Optional<Array<Date>>")
        let expression = #Predicate<QuerySample> { $0.title.localizedStandardContains("toy") }.expression
        #expect(readableTypeName(type(of: expression)) == "PredicateExpressions.StringLocalizedStandardContains<"
            + "PredicateExpressions.KeyPath<PredicateExpressions.Variable<OpenSwiftDataTests.QuerySample>, String>, "
            + "PredicateExpressions.Value<String>>")
    }
}
