import Foundation
import SwiftData

/// The app versions a server syncs with: its own, and older ones whose devices keep working
/// while it runs a newer version of the models, as the migration plan's rolling-deploy check
/// says (every step since is an expand step: entities, optional or defaulted attributes and
/// optional relationships added). An older device gets the models projected onto what its
/// version declares; what it does not know stays on the server, and its pushes, which carry only
/// the properties it set, never clear it.
struct SyncVersions {
    /// The server's version of the models.
    let current: Schema.Version
    /// Each older version the server syncs with: the property names of each entity it declares.
    private var older: [Schema.Version: [String: Set<String>]] = [:]
    /// Each older version the server refuses, and why.
    private var refused: [Schema.Version: String] = [:]

    init(schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        current = schema.version
        guard let migrationPlan else { return }
        let versions = migrationPlan.schemas
        guard let serving = versions.firstIndex(where: { $0.versionIdentifier == current }) else { return }
        #if canImport(OpenSwiftData)
        let steps = try MigrationTester(for: migrationPlan).rollingDeploySteps()
        // A version older than the first breaking step after it is refused for that step.
        var breaking: String?
        for index in stride(from: serving - 1, through: 0, by: -1) {
            let step = steps[index]
            if !step.isExpandStep, breaking == nil {
                breaking = step.breaksPreviousVersion.joined(separator: "; ")
            }
            let version = versions[index]
            if let breaking {
                refused[version.versionIdentifier] = breaking
            } else {
                older[version.versionIdentifier] = Self.properties(of: Schema(versionedSchema: version))
            }
        }
        #else
        for version in versions[..<serving] { refused[version.versionIdentifier] = "this server syncs with its own version only" }
        #endif
    }

    /// What a device of `version` knows of the models: `nil` when it knows what the server does
    /// (its version is the server's, or it did not say).
    ///
    /// - Throws: ``SyncRefusal`` for a version the server cannot sync with, in words for the
    ///   app's user.
    func properties(known version: String?) throws -> [String: Set<String>]? {
        guard let version else { return nil }
        guard let parsed = Self.version(version) else {
            throw SyncRefusal(status: SyncRefusal.appTooOld, message: "This app's data version \"\(version)\" is not a version number; update the app.")
        }
        if parsed == current { return nil }
        if parsed > current {
            throw SyncRefusal(status: SyncRefusal.serverTooOld, message:
                "This app (data version \(parsed)) is newer than its server (\(current)), which must be updated before it can sync; your changes are kept on this device until then.")
        }
        if let known = older[parsed] { return known }
        let reason = refused[parsed].map { ": \($0)" } ?? ": the server's migration plan does not have it"
        throw SyncRefusal(status: SyncRefusal.appTooOld, message:
            "This version of the app (data version \(parsed)) can no longer sync with its server (\(current))\(reason). Update the app; your changes are kept on this device until then.")
    }

    private static func properties(of schema: Schema) -> [String: Set<String>] {
        var names: [String: Set<String>] = [:]
        for entity in schema.entities { names[entity.name] = Set(entity.properties.map(\.name)) }
        return names
    }

    private static func version(_ text: String) -> Schema.Version? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 3, let major = parts[0], let minor = parts[1], let patch = parts[2] else { return nil }
        return Schema.Version(major, minor, patch)
    }
}
