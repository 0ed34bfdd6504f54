/// Makes an actor a ``ModelActor``: it gets its own ``ModelContext`` and runs on that context's
/// executor, so it can fetch, insert and save models off the main actor.
///
/// ```swift
/// @ModelActor
/// actor Importer {
///     func importFilms(_ rows: [FilmRow]) throws -> [PersistentIdentifier] {
///         let films = rows.map { Film(title: $0.title, releaseYear: $0.year) }
///         for film in films { modelContext.insert(film) }
///         try modelContext.save()
///         return films.map(\.persistentModelID)
///     }
/// }
///
/// let importer = Importer(modelContainer: container)
/// ```
///
/// The macro adds, as SwiftData's does:
/// - `nonisolated let modelExecutor: any ModelExecutor` and
///   `nonisolated let modelContainer: ModelContainer`;
/// - `init(modelContainer:)`, which creates a new ``ModelContext`` on the container and a
///   ``DefaultSerialModelExecutor`` that owns it;
/// - the ``ModelActor`` conformance, from which the actor gets `modelContext`, `unownedExecutor`
///   and `self[id, as: T.self]`.
///
/// You may write your own initializer instead; it assigns both properties:
///
/// ```swift
/// @ModelActor
/// actor Syncer {
///     let client: APIClient
///
///     init(modelContainer: ModelContainer, client: APIClient) {
///         self.modelContainer = modelContainer
///         self.modelExecutor = DefaultSerialModelExecutor(modelContext: ModelContext(modelContainer))
///         self.client = client
///     }
/// }
/// ```
///
/// `init(modelContainer:)` is generated unless it would clash with yours or could not compile:
/// it is left out when you declare an initializer callable as `init(modelContainer:)`, or when
/// you declare any initializer and the actor has stored properties without initial values
/// (which the generated initializer could not set).
///
/// The generated members are `public` (or `package`) when the actor is.
@attached(member, names: named(modelExecutor), named(modelContainer), named(init))
@attached(extension, conformances: ModelActor)
public macro ModelActor() = #externalMacro(module: "OpenSwiftDataMacros", type: "PersistentModelActorMacro")
