/// An actor that owns a ``ModelContext`` and runs on that context's executor, so the models it
/// fetches and inserts never leave it: the way to work with models off the main actor.
///
/// Write one with the ``ModelActor()`` macro:
///
/// ```swift
/// @ModelActor
/// actor Importer {
///     func importFilms(_ rows: [FilmRow]) throws -> [PersistentIdentifier] {
///         let films = rows.map { Film(title: $0.title, releaseYear: $0.year) }
///         for film in films { modelContext.insert(film) }
///         try modelContext.save()                        // no autosave here: save yourself
///         return films.map(\.persistentModelID)         // identifiers cross actors, models don't
///     }
/// }
///
/// let importer = Importer(modelContainer: container)
/// let ids = try await importer.importFilms(rows)
/// let film = container.mainContext.model(for: ids[0]) as? Film   // on the main actor
/// ```
///
/// ## Contexts across actors
///
/// Each actor has its own context over the container's stores, with its own objects: one object
/// per row per context, never shared. Hand ``PersistentIdentifier``s (which are `Sendable`)
/// between actors and resolve them on the other side, with ``subscript(_:as:)`` here or
/// ``ModelContext/model(for:)`` in any context.
///
/// What one context sees of another's saves:
/// - Nothing before the other context saves; everything after. A save is one SQLite
///   transaction, so a fetch sees all of it or none of it.
/// - A fetch returns the rows as they are in the store: rows inserted elsewhere appear, rows
///   deleted elsewhere are gone.
/// - Objects the context already holds are refreshed when a fetch reads their row, and only
///   then: the objects a fetch returns carry the stored values. Objects it does not read keep the
///   values they had (there is no background merge; fetch again to catch up). Looking an object
///   up with ``subscript(_:as:)``, ``ModelContext/model(for:)`` or
///   ``ModelContext/registeredModel(for:)`` returns the held object as it is, without reading
///   the store.
/// - An object with unsaved changes (or marked deleted) is never refreshed: it keeps all its
///   values, changed or not, until it is saved or rolled back. Its save writes only the
///   properties it changed, so properties another context saved in the meantime stay as that
///   context left them; for a property both changed, the last save wins.
/// - An object whose row another context deleted keeps its last values in memory and no longer
///   appears in fetches; saving changes to it writes nothing.
///
/// The actor's context does not autosave (`autosaveEnabled` is `false`): call `save()`. Each
/// save posts ``ModelContext/willSave`` and ``ModelContext/didSave`` on the actor's executor,
/// with the identifiers of the inserted, updated and deleted models.
///
/// Saves from several actors into one file store do not lose writes, and reads never wait for
/// them. Actors sharing a container take turns on its one writing connection. Containers (or
/// processes) sharing a file take turns for SQLite's write lock: a save waits up to 10 seconds
/// for another's to finish, and only past that fails, with a ``SwiftDataError`` that says so;
/// the context keeps its unsaved changes, so saving again retries. Each save writes only the
/// properties its context changed, so concurrent saves of different properties of one model
/// both stay.
public protocol ModelActor: Actor {
    /// The container whose stores the actor's context reads and writes.
    nonisolated var modelContainer: ModelContainer { get }
    /// The executor the actor runs on; it owns the actor's context.
    nonisolated var modelExecutor: any ModelExecutor { get }
}

extension ModelActor {
    /// The model executor, as the serial executor the actor runs on.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        guard let executor = modelExecutor as? any SerialExecutor else {
            fatalError(
                "\(type(of: self)).modelExecutor is a \(type(of: modelExecutor)), which is not a SerialExecutor; "
                    + "an actor runs one job at a time, so give it a DefaultSerialModelExecutor or another SerialModelExecutor")
        }
        return executor.asUnownedSerialExecutor()
    }

    /// The actor's context: its model executor's.
    public var modelContext: ModelContext {
        modelExecutor.modelContext
    }

    /// The model with the identifier, in this actor's context, or `nil` when there is none.
    ///
    /// Returns the object the context already holds (as it is, unsaved changes included),
    /// otherwise reads the row from the store. `nil` when the identifier's row does not exist
    /// (deleted, or never saved anywhere), belongs to another entity than `T`, or comes from a
    /// store that is not this container's.
    ///
    /// ```swift
    /// func rename(_ id: PersistentIdentifier, to title: String) throws {
    ///     guard let film = self[id, as: Film.self] else { return }
    ///     film.title = title
    ///     try modelContext.save()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - id: The identifier of the model, from any context of the container.
    ///   - as: The model class the identifier's entity is stored as.
    /// - Returns: The model, or `nil` when no row of class `T` has the identifier.
    public subscript<T>(id: PersistentIdentifier, as as: T.Type) -> T? where T: PersistentModel {
        modelContext.existingModel(for: id, as: T.self)
    }
}
