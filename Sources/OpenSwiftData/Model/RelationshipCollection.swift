/// A to-many relationship's value: an array of models, optional or not.
///
/// `[Book]` and `[Book]?` are to-many relationships; `Set<Book>` and other collections are not
/// supported, as in SwiftData.
public protocol RelationshipCollection {
    associatedtype PersistentElement: PersistentModel
}

extension Array: RelationshipCollection where Element: PersistentModel {
    public typealias PersistentElement = Element
}

extension Optional: RelationshipCollection where Wrapped: Sequence, Wrapped.Element: PersistentModel {
    public typealias PersistentElement = Wrapped.Element
}

extension RelationshipCollection {
    /// The model type the collection holds, for code that only has the collection's type.
    static var elementModelType: any PersistentModel.Type { PersistentElement.self }
}
