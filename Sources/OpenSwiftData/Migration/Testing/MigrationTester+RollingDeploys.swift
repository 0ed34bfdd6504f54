// The plan's steps seen from a rolling deploy.
extension MigrationTester {
    /// Each step of the plan, version to next version, with what breaks servers still running
    /// the earlier version once it has run (``RollingDeployStep``): what to check before
    /// shipping a version to a fleet that upgrades one server at a time.
    ///
    /// ```swift
    /// @Test func version3CanRollOut() throws {
    ///     let steps = try MigrationTester(for: FilmsMigrationPlan.self).rollingDeploySteps()
    ///     #expect(steps.last?.isExpandStep == true, "\(steps.last!)")
    /// }
    /// ```
    ///
    /// - Returns: one step per pair of consecutive versions, oldest first.
    /// - Throws: ``MigrationVerificationError`` when the plan itself is broken.
    public func rollingDeploySteps() throws -> [RollingDeployStep] {
        let versions: [PlanVersions.Version]
        do {
            versions = try PlanVersions(validating: plan).versions
        } catch {
            throw MigrationVerificationError(problems: [.init(version: nil, message: (error as? SwiftDataError)?.explanation ?? "\(error)")])
        }
        return zip(versions, versions.dropFirst()).map { before, after in
            var breaks = SchemaComparison(from: before.schema, to: after.schema).breaksPreviousVersion
            if customStage(from: before.type, to: after.type) {
                breaks.append(
                    "the custom stage to \(after.name) rewrites the stored rows once, as it runs: rows that servers still running \(before.name) write during or after it are not rewritten; ship it once every instance runs the new version, or make the new version read both forms")
            }
            return RollingDeployStep(from: before.name, to: after.name, breaksPreviousVersion: breaks)
        }
    }

    /// Whether the plan's stage between the two versions runs code of its own.
    private func customStage(from: any VersionedSchema.Type, to: any VersionedSchema.Type) -> Bool {
        plan.stages.contains { stage in
            guard case .custom(let stageFrom, let stageTo, let willMigrate, let didMigrate) = stage else { return false }
            return stageFrom == from && stageTo == to && (willMigrate != nil || didMigrate != nil)
        }
    }
}
