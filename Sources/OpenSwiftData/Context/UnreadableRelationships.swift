/// The relationships of a container's models that are declared with another class of their
/// destination's entity than the container's, and whose rows cannot be read as that class
/// (``TableLayout/readingRows(of:as:schema:)``), by each model class a fetch can return that
/// reaches one. Such a fetch throws, naming the relationship, rather than a later read of the
/// relationship stopping the process. Empty for nearly every container: found once, as it
/// opens.
struct UnreadableRelationships {
    private let problemByClass: [ObjectIdentifier: String]

    /// - Parameter storeOf: the store holding an entity's rows, if the container has it.
    init(models: [ModelLayout], storeOf: (String) -> (any ModelStore)?) {
        var direct: [ObjectIdentifier: String] = [:]
        var reached: [ObjectIdentifier: [ObjectIdentifier]] = [:]
        var pending = models.map(\.modelType)
        var seen = Set(pending.map { ObjectIdentifier($0) })
        while let type = pending.popLast() {
            let layout = ModelLayout.of(type)
            for property in layout.properties {
                guard let destination = property.destination else { continue }
                let entity = Schema.entityName(for: destination)
                guard let store = storeOf(entity), let table = store.tables[entity] else { continue }
                reached[ObjectIdentifier(type), default: []].append(ObjectIdentifier(destination))
                if seen.insert(ObjectIdentifier(destination)).inserted { pending.append(destination) }
                guard table.layout.modelType != destination else { continue }
                do {
                    _ = try store.table(forEntity: entity, readingRowsAs: destination)
                } catch {
                    direct[ObjectIdentifier(type)] = direct[ObjectIdentifier(type)] ?? Self.explanation(
                        layout, property, destination, error)
                }
            }
        }
        guard !direct.isEmpty else {
            problemByClass = [:]
            return
        }
        var problemByClass: [ObjectIdentifier: String] = [:]
        for model in models {
            // The first problem reachable from the class, breadth first.
            var queue = [ObjectIdentifier(model.modelType)]
            var visited = Set(queue)
            var index = 0
            while index < queue.count {
                let type = queue[index]
                index += 1
                if let problem = direct[type] {
                    problemByClass[ObjectIdentifier(model.modelType)] = problem
                    break
                }
                for next in reached[type] ?? [] where visited.insert(next).inserted { queue.append(next) }
            }
        }
        self.problemByClass = problemByClass
    }

    /// Why models of `type` cannot be fetched, if they cannot.
    func problem(fetching type: any PersistentModel.Type) -> String? {
        problemByClass.isEmpty ? nil : problemByClass[ObjectIdentifier(type)]
    }

    private static func explanation(
        _ layout: ModelLayout, _ property: ModelLayout.Property, _ destination: any PersistentModel.Type,
        _ refusal: OtherClassReadRefusal
    ) -> String {
        let declared = String(reflecting: destination)
        return "\(layout.entityName).\(property.name) is declared with \(declared), but this container's \(Schema.entityName(for: destination)) is \(String(reflecting: refusal.storeClass)), and its rows cannot be read as \(declared): "
            + refusal.problems.joined(separator: "; ")
            + ". Declare the relationship with the class the container lists, or open the container with the version whose models \(declared) belongs to"
    }
}
