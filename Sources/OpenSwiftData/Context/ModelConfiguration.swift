import Foundation

/// Where and how a container keeps a store: a file (the default), a file at a URL you choose,
/// or memory; read-write or read-only; and which of the schema's entities it holds.
///
/// ```swift
/// let onDisk = ModelConfiguration(url: URL(filePath: "/var/lib/myapp/films.store"))
/// let inMemory = ModelConfiguration(isStoredInMemoryOnly: true)
/// let readOnly = ModelConfiguration(url: storeURL, allowsSave: false)
/// ```
///
/// **Default location.** Without a URL, the store is `<name>.store` (`default.store` when
/// unnamed) in a folder named after the running executable inside the user's application
/// support folder: on Linux `$XDG_DATA_HOME/<executable>/` (usually
/// `~/.local/share/<executable>/`), on Apple platforms `~/Library/Application Support/<executable>/`.
/// SQLite keeps `<name>.store-wal` and `<name>.store-shm` beside it.
public struct ModelConfiguration: Identifiable, Hashable, CustomDebugStringConvertible, Sendable {
    public typealias ID = URL

    /// The store's file; `/dev/null` for a store in memory.
    public let url: URL
    public let name: String
    public let groupAppContainerIdentifier: String?
    public let cloudKitContainerIdentifier: String?
    public let groupContainer: GroupContainer
    public let cloudKitDatabase: CloudKitDatabase
    /// The entities the store holds; `nil` for all of the container's.
    public var schema: Schema?
    /// Whether contexts may save to the store; `false` opens it read-only.
    public let allowsSave: Bool
    public let isStoredInMemoryOnly: Bool
    /// Whether opening the store copies it to `<file>.backup` before a migration that can remove
    /// or rewrite stored values: one with a custom stage, a table rebuild, or an entity,
    /// attribute or relationship dropped (the default). A migration that only adds entities,
    /// properties and indices or renames them changes no stored value and runs in one
    /// transaction, so it is not copied: on a large store the copy would cost far more than the
    /// migration. OpenSwiftData's addition: turn it off when the copy costs more than it is
    /// worth, for a large store you can rebuild.
    public var backsUpBeforeMigrating = true

    /// How long, in seconds, opening the store waits for another process that holds its write
    /// lock (most likely migrating it: the app, one of its extensions, another server) before
    /// it gives up; 10 minutes unless set. A container that waited opens the store as the
    /// other process's migration left it, reporting
    /// ``MigrationProgress/Phase/waitingForAnotherProcess`` meanwhile. OpenSwiftData's addition.
    public var migrationWaitTimeout: TimeInterval = 600

    public var id: URL { url }

    /// The folder stores go to when no URL is given.
    public static var defaultDirectory: URL {
        let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        let executable = ProcessInfo.processInfo.processName
        return base.appendingPathComponent(executable.isEmpty ? "OpenSwiftData" : executable, isDirectory: true)
    }

    /// The configuration of the default store: `default.store` in ``defaultDirectory``, or a store
    /// in memory.
    ///
    /// - Parameter isStoredInMemoryOnly: Whether the store lives in memory only: it starts empty
    ///   and goes with its container.
    public init(isStoredInMemoryOnly: Bool = false) {
        self.init(nil, schema: nil, isStoredInMemoryOnly: isStoredInMemoryOnly)
    }

    /// The configuration of the default store, holding these models' entities only.
    ///
    /// - Parameters:
    ///   - forTypes: The model classes whose entities the store holds, with those of the models
    ///     their relationships reach.
    ///   - isStoredInMemoryOnly: Whether the store lives in memory only.
    public init(for forTypes: any PersistentModel.Type..., isStoredInMemoryOnly: Bool = false) {
        self.init(nil, schema: Schema(forTypes), isStoredInMemoryOnly: isStoredInMemoryOnly)
    }

    /// The configuration of the store named `name`: `<name>.store` in ``defaultDirectory`` or in an
    /// app group's folder, or a store in memory.
    ///
    /// - Parameters:
    ///   - name: The store's name; `default` when `nil`.
    ///   - schema: The entities the store holds; `nil` for all of the container's.
    ///   - isStoredInMemoryOnly: Whether the store lives in memory only.
    ///   - allowsSave: Whether contexts may save to the store. `false` opens an existing store
    ///     read-only, and never migrates it.
    ///   - groupContainer: The app group whose folder holds the store; off Apple platforms, a
    ///     folder named after the group beside ``defaultDirectory``.
    ///   - cloudKitDatabase: Accepted for compatibility; stores are kept locally.
    public init(
        _ name: String? = nil, schema: Schema? = nil, isStoredInMemoryOnly: Bool = false,
        allowsSave: Bool = true, groupContainer: GroupContainer = .automatic,
        cloudKitDatabase: CloudKitDatabase = .automatic
    ) {
        let name = name ?? "default"
        self.name = name
        self.schema = schema
        self.isStoredInMemoryOnly = isStoredInMemoryOnly
        self.allowsSave = allowsSave
        self.groupContainer = groupContainer
        self.cloudKitDatabase = cloudKitDatabase
        groupAppContainerIdentifier = groupContainer.identifier
        cloudKitContainerIdentifier = cloudKitDatabase.containerIdentifier
        if isStoredInMemoryOnly {
            url = URL(fileURLWithPath: "/dev/null")
        } else {
            var directory = Self.defaultDirectory
            if let group = groupContainer.identifier {
                directory = directory.deletingLastPathComponent().appendingPathComponent(group, isDirectory: true)
            }
            url = directory.appendingPathComponent("\(name).store")
        }
    }

    /// The configuration of the store at `url`.
    ///
    /// - Parameters:
    ///   - name: The configuration's name; the file's name without its extension when `nil`.
    ///   - schema: The entities the store holds; `nil` for all of the container's.
    ///   - url: The store's file. A missing file is created, with its folder, when the store
    ///     allows saving.
    ///   - allowsSave: Whether contexts may save to the store. `false` opens an existing store
    ///     read-only, and never migrates it.
    ///   - cloudKitDatabase: Accepted for compatibility; stores are kept locally.
    public init(
        _ name: String? = nil, schema: Schema? = nil, url: URL, allowsSave: Bool = true,
        cloudKitDatabase: CloudKitDatabase = .automatic
    ) {
        self.name = name ?? url.deletingPathExtension().lastPathComponent
        self.schema = schema
        self.url = url
        self.allowsSave = allowsSave
        self.cloudKitDatabase = cloudKitDatabase
        isStoredInMemoryOnly = false
        groupContainer = .none
        groupAppContainerIdentifier = nil
        cloudKitContainerIdentifier = cloudKitDatabase.containerIdentifier
    }

    public var debugDescription: String {
        "ModelConfiguration(name: \(name), url: \(url.path), inMemory: \(isStoredInMemoryOnly), allowsSave: \(allowsSave))"
    }

    /// Whether two configurations describe one store alike: the same name, URL, place (memory or
    /// file) and `allowsSave`.
    ///
    /// - Parameters:
    ///   - lhs: A configuration.
    ///   - rhs: Another configuration.
    /// - Returns: `true` when all four are equal.
    public static func == (lhs: ModelConfiguration, rhs: ModelConfiguration) -> Bool {
        lhs.name == rhs.name && lhs.url == rhs.url && lhs.isStoredInMemoryOnly == rhs.isStoredInMemoryOnly
            && lhs.allowsSave == rhs.allowsSave
    }

    /// Hashes the configuration's name and URL.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(url)
    }

    /// Where a store would sync with CloudKit. CloudKit is not available off Apple platforms:
    /// every value is accepted and stores are kept locally.
    public struct CloudKitDatabase: Sendable, Hashable {
        let containerIdentifier: String?
        public static var automatic: CloudKitDatabase { CloudKitDatabase(containerIdentifier: nil) }
        public static var none: CloudKitDatabase { CloudKitDatabase(containerIdentifier: nil) }
        /// A private CloudKit database: accepted for compatibility, and the store kept locally.
        ///
        /// - Parameter privateDBName: The identifier of the CloudKit container.
        /// - Returns: The database.
        public static func `private`(_ privateDBName: String) -> CloudKitDatabase {
            CloudKitDatabase(containerIdentifier: privateDBName)
        }
    }

    /// The app group whose shared folder holds the store. Off Apple platforms a group is a
    /// folder named after it beside the default folder.
    public struct GroupContainer: Sendable, Hashable {
        let identifier: String?
        public static var automatic: GroupContainer { GroupContainer(identifier: nil) }
        public static var none: GroupContainer { GroupContainer(identifier: nil) }
        /// The app group named `groupName`.
        ///
        /// - Parameter groupName: The group's identifier; off Apple platforms, the name of its
        ///   folder.
        /// - Returns: The group container.
        public static func identifier(_ groupName: String) -> GroupContainer {
            GroupContainer(identifier: groupName)
        }
    }
}

extension ModelConfiguration: DataStoreConfiguration {
    /// A model configuration opens an SQLite store.
    public typealias Store = DefaultStore
}
