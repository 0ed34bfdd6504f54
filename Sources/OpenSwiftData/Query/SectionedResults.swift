/// Results grouped into sections by a key path's value: the sections in the order their first
/// element comes in the sorted results, each holding its elements in that order.
///
/// A ``ResultsObserver`` created with a `sectionBy` key path keeps its
/// ``ResultsObserver/sections`` current.
public struct SectionedResults<Element, SectionTitle>: RandomAccessCollection, Equatable
where Element: PersistentModel, SectionTitle: Hashable {
    private let sections: [ResultsSection<Element, SectionTitle>]
    private let indexByTitle: [SectionTitle: Int]

    /// Groups sorted elements into sections: consecutive elements with one title form one
    /// section (the fetch sorts by the title first, so each title has one run).
    init(_ elements: [Element], title: (Element) -> SectionTitle) {
        var sections: [ResultsSection<Element, SectionTitle>] = []
        var indexByTitle: [SectionTitle: Int] = [:]
        var start = 0
        while start < elements.count {
            let sectionTitle = title(elements[start])
            var end = start + 1
            while end < elements.count, title(elements[end]) == sectionTitle { end += 1 }
            if let index = indexByTitle[sectionTitle] {
                // A title met again (a sort that does not put the title first): one section still.
                sections[index] = ResultsSection(title: sectionTitle, elements: sections[index].elements + elements[start..<end])
            } else {
                indexByTitle[sectionTitle] = sections.count
                sections.append(ResultsSection(title: sectionTitle, elements: Array(elements[start..<end])))
            }
            start = end
        }
        self.sections = sections
        self.indexByTitle = indexByTitle
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { sections.count }

    public subscript(position: Int) -> ResultsSection<Element, SectionTitle> {
        sections[position]
    }

    /// The section titles in order.
    public var sectionTitles: [SectionTitle] { sections.map(\.title) }

    /// Whether a section has this title.
    ///
    /// - Parameter sectionTitle: A section title.
    /// - Returns: `true` when one of the sections has it.
    public func contains(sectionTitle: SectionTitle) -> Bool {
        indexByTitle[sectionTitle] != nil
    }

    /// The position of the section with this title.
    ///
    /// - Parameter title: A section title.
    /// - Returns: The section's index; `nil` when no section has the title.
    public func index(ofSectionTitled title: SectionTitle) -> Int? {
        indexByTitle[title]
    }

    /// The section with this title; `nil` when there is none. O(1).
    public subscript(sectionTitle title: SectionTitle) -> ResultsSection<Element, SectionTitle>? {
        indexByTitle[title].map { sections[$0] }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.sections == rhs.sections
    }
}
