// What a model's relationships store, as keys: what every store's writer writes for them.
extension ModelState {
    /// The key a to-one relationship stores: the related row's, `.some(nil)` (`NULL`) when it
    /// holds nothing, or `nil` when the related model has no row yet (its key is written once
    /// it has). `rowID` gives a model's key, counting rows inserted earlier in the save.
    package func foreignKey(_ foreignKey: StoredRelationship, rowID: (ModelState) -> Int64?) -> Int64?? {
        let value = storedValue(at: foreignKey.propertyIndex)
        if case .toOne(let key)? = RelationshipFault.held(in: value) { return .some(key) }
        guard let related = relatedModels(in: value, at: foreignKey.propertyIndex).first else { return .some(nil) }
        guard let relatedState = related.modelState, let key = rowID(relatedState) else { return nil }
        return .some(key)
    }

    /// The relationships of `table` a save writes for the model: the loaded ones (a fault holds
    /// nothing new); with `onlyChanged` (an update) only those it changed, with `overStoredRow`
    /// (an insert that took over the stored row holding its unique values) only those it sets.
    package func relationshipsToWrite(
        in table: TableLayout, onlyChanged: Bool, overStoredRow: Bool = false
    ) -> LazyFilterSequence<[StoredRelationship]> {
        table.relationships.lazy.filter { relationship in
            (!onlyChanged || self.changedProperties.contains(relationship.propertyIndex))
                && (!overStoredRow || self.setsOnUpsert(relationship.propertyIndex))
                && self.holdsLoadedValue(of: relationship)
        }
    }

    /// Whether the relationship's value is loaded (not a fault): only then does a save write it.
    package func holdsLoadedValue(of relationship: StoredRelationship) -> Bool {
        !RelationshipFault.isFault(storedValue(at: relationship.propertyIndex))
    }

    /// The keys of the models a to-many relationship holds that have rows and are not deleted.
    package func relatedRowIDs(_ relationship: StoredRelationship, rowID: (ModelState) -> Int64?) -> [Int64] {
        relatedModels(in: storedValue(at: relationship.propertyIndex), at: relationship.propertyIndex).compactMap { related in
            guard let relatedState = related.modelState, !relatedState.isDeleted else { return nil }
            return rowID(relatedState)
        }
    }
}
