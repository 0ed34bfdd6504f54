import Foundation

/// When ``SchemaMigrationPlan/verify(snapshotsIn:recording:)`` writes snapshots.
public enum SnapshotRecording: Sendable {
    /// Versions without a snapshot get one, once every check has passed (on a developer's
    /// machine: commit the new files).
    case missing
    /// No snapshot is written; a version without one is a problem (in CI).
    case never
}

extension SchemaMigrationPlan {
    /// Checks the plan against frozen snapshots of its versions, one JSON file per version in
    /// `folder` named by its version identifier (`1.0.0.json`), in the encoding stores record.
    ///
    /// Call it from a test; commit the folder. It finds, all at once:
    /// - a version whose structure no longer matches its snapshot (a shipped version edited in
    ///   place), with the difference;
    /// - two versions with one structure, versions out of order, stages that name versions
    ///   outside the plan, skip versions or go backwards, versions whose models cannot be stored;
    /// - a snapshot of a version the plan no longer lists that is newer than the plan's oldest
    ///   version (a shipped version vanished; dropping the oldest versions is allowed);
    /// - with `recording: .never`, a version with no snapshot;
    /// - with a named CloudKit container, every version's breaches of CloudKit's rules (an
    ///   attribute neither optional nor defaulted, a uniqueness constraint, a non-optional
    ///   relationship, the `.deny` rule), which SwiftData only reports on a device.
    ///
    /// ```swift
    /// @Test func shippedVersionsAreFrozen() throws {
    ///     let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "SchemaSnapshots")
    ///     try FilmsMigrationPlan.verify(snapshotsIn: folder,
    ///                                   recording: ProcessInfo.processInfo.environment["CI"] == nil ? .missing : .never)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - folder: the folder of snapshots; made when snapshots are recorded.
    ///   - recording: whether missing snapshots are written (only when no problem was found; a
    ///     snapshot is never rewritten) or count as problems.
    ///   - cloudKitDatabase: the CloudKit database the app's stores sync with; `.none` (the
    ///     default) and `.automatic` check no CloudKit rule.
    /// - Returns: the snapshot files written.
    /// - Throws: ``MigrationVerificationError`` listing every problem.
    @discardableResult
    public static func verify(
        snapshotsIn folder: URL, recording: SnapshotRecording = .missing,
        cloudKitDatabase: ModelConfiguration.CloudKitDatabase = .none
    ) throws -> [URL] {
        let versions = PlanVersions.versions(of: self)
        var problems = PlanVersions.problems(of: self, versions).map { MigrationVerificationError.Problem(version: $0.version, message: $0.message) }
        problems += MigrationVerificationError.Problem.cloudKit(versions, cloudKitDatabase)
        var missing: [(URL, Schema)] = []
        let listed = Set(versions.map { $0.schema.version })
        for version in versions {
            let file = SchemaSnapshotFile.url(of: version.schema.version, in: folder)
            guard FileManager.default.fileExists(atPath: file.path) else {
                if recording == .never {
                    problems.append(.init(version: version.name, message:
                        "has no snapshot (\(file.path)); record it by running this check with recording: .missing where the plan is known to be right, and commit the file"))
                }
                missing.append((file, version.schema))
                continue
            }
            let snapshot: Schema
            do {
                snapshot = try Schema.load(from: file)
            } catch {
                problems.append(.init(version: version.name, message: "its snapshot \(file.path) cannot be read (\(error)); restore it from version control"))
                continue
            }
            if snapshot.fingerprint != version.schema.fingerprint {
                let difference = SchemaComparison(from: snapshot.entities, to: version.schema.entities)
                problems.append(.init(version: version.name, message:
                    "no longer matches its snapshot \(file.lastPathComponent): \(difference). Stores written by the shipped version have the snapshot's structure and would no longer be recognised. Restore the models of \(version.name) as they shipped and make the change in a new version (if this version never shipped, delete its snapshot)"))
            }
        }
        if let oldest = versions.first?.schema.version {
            for (file, version) in SchemaSnapshotFile.snapshots(in: folder) where !listed.contains(version) && version > oldest {
                problems.append(.init(version: version.description, message:
                    "has a snapshot (\(file.lastPathComponent)) but is no longer in \(self).schemas, and it is newer than the oldest version the plan lists (\(oldest)): stores written by it could no longer be opened. Put the version back in schemas (only the oldest versions may be dropped, when the app no longer supports them)"))
            }
        }
        if !problems.isEmpty { throw MigrationVerificationError(problems: problems) }
        guard recording == .missing else { return [] }
        return try missing.map { file, schema in
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try schema.save(to: file)
            return file
        }
    }
}

/// The files of schema snapshots: `<major>.<minor>.<patch>.json`.
enum SchemaSnapshotFile {
    static func url(of version: Schema.Version, in folder: URL) -> URL {
        folder.appendingPathComponent("\(version).json")
    }

    /// The snapshot files in `folder` and the versions their names give.
    static func snapshots(in folder: URL) -> [(URL, Schema.Version)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().compactMap { name in
            guard name.hasSuffix(".json") else { return nil }
            let numbers = name.dropLast(5).split(separator: ".").compactMap { Int($0) }
            guard numbers.count == 3, numbers.allSatisfy({ $0 >= 0 }) else { return nil }
            return (folder.appendingPathComponent(name), Schema.Version(numbers[0], numbers[1], numbers[2]))
        }
    }
}
