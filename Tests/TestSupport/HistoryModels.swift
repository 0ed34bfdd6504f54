import OpenSwiftData

// The models the history tests of both test targets record, declared once.

/// A model whose history keeps one value past its deletion.
@Model public final class Memo {
    public var title: String
    @Attribute(.preserveValueOnDeletion) public var code: String
    public var body: String?
    public init(title: String, code: String) {
        self.title = title
        self.code = code
    }
}

/// A model whose pages a delete cascades to.
@Model public final class Jotter {
    public var name: String
    @Relationship(deleteRule: .cascade, inverse: \JotterPage.jotter) public var pages: [JotterPage] = []
    public init(name: String) { self.name = name }
}

@Model public final class JotterPage {
    public var number: Int
    public var jotter: Jotter?
    public init(number: Int) { self.number = number }
}

/// Three saves by two authors into `container`'s store: two memos inserted by "app", the
/// first's body set by "widget", the second deleted by "app" (its code preserved). Returns the
/// two memos' identifiers.
@discardableResult
public func writeThreeSaves(into container: ModelContainer) throws -> (first: PersistentIdentifier, second: PersistentIdentifier) {
    let context = ModelContext(container)
    context.author = "app"
    let first = Memo(title: "groceries", code: "A1")
    let second = Memo(title: "errands", code: "B2")
    context.insert(first)
    context.insert(second)
    try context.save()
    context.author = "widget"
    first.body = "milk"
    try context.save()
    context.author = "app"
    context.delete(second)
    let identifiers = (first.persistentModelID, second.persistentModelID)
    try context.save()
    return identifiers
}
