import Foundation

// Which store is which, and the notification of commits to them.
extension ModelContainer {
    /// Posted after commits to one of the container's stores by any context: of this container,
    /// of another container on the same file, or of another process. The notification's object
    /// is the container; `userInfo["storeIdentifier"]` names the store. One notification may
    /// stand for several commits, and it comes on a background thread.
    ///
    /// Posted while a ``HistoryObserver`` or ``ResultsObserver`` of the container exists: they
    /// are what listens to it. On Linux the container learns of commits through inotify, with
    /// no polling (see the History article); elsewhere it looks four times a second.
    public static let remoteChange = Notification.Name("ModelContainerRemoteChange")

    /// The identifier of the store opened for the configuration named `name`: what history
    /// tokens and persistent identifiers call the store.
    ///
    /// - Parameter name: A configuration's name.
    /// - Returns: The store's identifier; `nil` when no configuration of the container has the name.
    public func storeIdentifier(forConfigurationNamed name: String) -> String? {
        configurationNameByStore.first { $0.value == name }?.key
    }

    /// The name of the configuration the store with this identifier was opened for.
    ///
    /// - Parameter identifier: A store identifier, such as a history token's.
    /// - Returns: The configuration's name; `nil` when no store of the container has the identifier.
    public func configurationName(forStoreIdentifier identifier: String) -> String? {
        configurationNameByStore[identifier]
    }

    /// Starts posting ``remoteChange`` (if no other observer had it posted already) until
    /// ``endPostingRemoteChanges()``.
    ///
    /// - Throws: when a store's file cannot be watched.
    package func beginPostingRemoteChanges() throws {
        try remoteChangeWatch.withLock { watch in
            if watch.observers == 0 {
                watch.watches = try stores.map { store in
                    let identifier = store.identifier
                    return try store.watchCommits { [weak self] in
                        guard let self else { return }
                        NotificationCenter.default.post(name: Self.remoteChange, object: self, userInfo: ["storeIdentifier": identifier])
                    }
                }
            }
            watch.observers += 1
        }
    }

    /// Balances ``beginPostingRemoteChanges()``; the last observer's end stops the watches.
    package func endPostingRemoteChanges() {
        let stopped: [CommitWatcher.Watch] = remoteChangeWatch.withLock { watch in
            watch.observers -= 1
            guard watch.observers == 0 else { return [] }
            defer { watch.watches = [] }
            return watch.watches
        }
        for watch in stopped { watch.cancel() }
    }
}
