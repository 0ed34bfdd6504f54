/// One section of ``SectionedResults``: the elements that share a title, in order.
public struct ResultsSection<Element, SectionTitle>: RandomAccessCollection, Identifiable, Equatable
where Element: PersistentModel, SectionTitle: Hashable {
    /// The identifier of the section: the value its elements share.
    public let title: SectionTitle
    let elements: [Element]

    init(title: SectionTitle, elements: [Element]) {
        self.title = title
        self.elements = elements
    }

    /// The section's title, which identifies it.
    public var id: SectionTitle { title }

    public var startIndex: Int { 0 }
    public var endIndex: Int { elements.count }

    public subscript(position: Int) -> Element {
        elements[position]
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.title == rhs.title && lhs.elements.elementsEqual(rhs.elements) { $0 === $1 }
    }
}
