import Foundation

/// How far a migration has gone, as a container opening a store reports it: which step of how
/// many, what it is doing, the rows done of the total while a transform visits them, and the
/// fraction of the whole migration completed.
///
/// ```swift
/// let container = try await Task.detached {
///     try ModelContainer(for: Schema(versionedSchema: SchemaV3.self), migrationPlan: Plan.self,
///                        configurations: [ModelConfiguration(url: url)]) { progress in
///         Task { @MainActor in screen.fraction = progress.fractionCompleted }
///     }
/// }.value
/// ```
public struct MigrationProgress: Sendable, CustomStringConvertible {
    /// What the migration is doing.
    public enum Phase: String, Sendable {
        /// Another process (the app, one of its extensions, another server) holds the store's
        /// write lock, most likely migrating it: the container waits for it, then opens the store
        /// as that migration left it, or migrates it itself if it is still not up to date.
        /// Reported about once a second while waiting, with step 0 of 0.
        case waitingForAnotherProcess
        /// A step starts (its custom stage's `willMigrate` runs first, if it has one).
        case started
        /// The step changes the tables: columns added, tables rebuilt.
        case restructuring
        /// A custom stage's `didMigrate` (a transform's rows) runs.
        case migratingRows
        /// The step is done.
        case finished
    }

    /// The store being migrated.
    public let storeURL: URL
    /// The step, from 1.
    public let step: Int
    public let stepCount: Int
    public let fromVersion: String
    public let toVersion: String
    public let phase: Phase
    /// The entity whose rows are being visited, during a transform.
    public let entity: String?
    /// Rows visited so far and in all, during a transform; 0 otherwise.
    public let rowsDone: Int
    public let rowsTotal: Int

    /// The fraction of the migration completed, from 0 to 1: steps count alike, and within a
    /// transform's step its rows.
    public var fractionCompleted: Double {
        let within: Double = switch phase {
        case .waitingForAnotherProcess, .started: 0
        case .restructuring: 0.1
        case .migratingRows: rowsTotal > 0 ? 0.1 + 0.9 * Double(rowsDone) / Double(rowsTotal) : 0.1
        case .finished: 1
        }
        return (Double(max(step - 1, 0)) + within) / Double(max(stepCount, 1))
    }

    public var description: String {
        if phase == .waitingForAnotherProcess {
            return "waiting for another process to let go of the store (\(fromVersion) → \(toVersion) planned)"
        }
        let rows = rowsTotal > 0 ? ", \(entity.map { "\($0) " } ?? "")rows \(rowsDone)/\(rowsTotal)" : ""
        return "step \(step)/\(stepCount) \(fromVersion) → \(toVersion): \(phase.rawValue)\(rows), \(Int(fractionCompleted * 100))%"
    }
}

extension MigrationProgress {
    /// What reports to `progress` that opening the store waits for another process, about once
    /// a second while it does; `nil` without `progress`.
    static func waitingReport(
        storeURL: URL, from: String, to: String, _ progress: (@Sendable (MigrationProgress) -> Void)?
    ) -> (@Sendable (TimeInterval) -> Void)? {
        guard let progress else { return nil }
        return { _ in
            progress(MigrationProgress(
                storeURL: storeURL, step: 0, stepCount: 0, fromVersion: from, toVersion: to,
                phase: .waitingForAnotherProcess, entity: nil, rowsDone: 0, rowsTotal: 0))
        }
    }
}

/// Reports a migration's progress to the app's closure, step by step.
package struct MigrationProgressReporter {
    let storeURL: URL
    let stepCount: Int
    let report: (MigrationProgress) -> Void

    package init(storeURL: URL, stepCount: Int, report: @escaping (MigrationProgress) -> Void) {
        self.storeURL = storeURL
        self.stepCount = stepCount
        self.report = report
    }

    func report(step: Int, _ migrationStep: MigrationStep, _ phase: MigrationProgress.Phase, entity: String? = nil, rowsDone: Int = 0, rowsTotal: Int = 0) {
        report(step: step, from: migrationStep.fromName, to: migrationStep.toName, phase, entity: entity, rowsDone: rowsDone, rowsTotal: rowsTotal)
    }

    /// Reports that step `step`, from version `from` to `to`, is at `phase`.
    package func report(
        step: Int, from: String, to: String, _ phase: MigrationProgress.Phase, entity: String? = nil, rowsDone: Int = 0, rowsTotal: Int = 0
    ) {
        report(MigrationProgress(
            storeURL: storeURL, step: step, stepCount: stepCount, fromVersion: from,
            toVersion: to, phase: phase, entity: entity, rowsDone: rowsDone, rowsTotal: rowsTotal))
    }
}
