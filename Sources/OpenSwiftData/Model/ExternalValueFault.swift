/// Stands in a model's backing data for the value of an `.externalStorage` attribute that has
/// not been read yet; reading the property loads it from the attribute's side table.
package struct ExternalValueFault {
    let load: () throws -> Any?

    package init(load: @escaping () throws -> Any?) {
        self.load = load
    }
}
