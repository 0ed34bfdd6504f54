extension Schema {
    /// What `@Model` records about one persisted property: its name, key path, declared default
    /// value and the options of its `@Attribute` or `@Relationship` marker.
    ///
    /// The generated `schemaMetadata` lists one per property in declaration order; the schema
    /// is built from them. `#Unique` and `#Index` add entries whose `metadata` holds the
    /// constraint.
    public struct PropertyMetadata {
        let name: String
        let keyPath: AnyKeyPath
        let defaultValue: Any?
        let metadata: (any SchemaProperty)?

        /// What `@Model` records about one persisted property, or about a `#Unique` or `#Index`
        /// declaration.
        ///
        /// - Parameters:
        ///   - name: The property's name.
        ///   - keypath: The property's key path, rooted at the model class.
        ///   - defaultValue: The initial value the declaration gives, if any.
        ///   - metadata: The options of the property's `@Attribute` or `@Relationship` marker, or
        ///     the `#Unique` or `#Index` constraint.
        public init(name: String, keypath: AnyKeyPath, defaultValue: Any? = nil, metadata: (any SchemaProperty)? = nil) {
            self.name = name
            self.keyPath = keypath
            self.defaultValue = defaultValue
            self.metadata = metadata
        }
    }
}
