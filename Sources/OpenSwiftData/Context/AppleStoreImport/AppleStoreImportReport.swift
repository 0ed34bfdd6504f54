import Foundation

extension AppleStoreImport {
    /// What an import brought over and checked.
    public struct Report: CustomStringConvertible, Sendable {
        /// What the import was planned to do, with what it left behind as accepted.
        public let plan: Plan
        /// The models made of each entity, by entity name.
        public let rows: [String: Int]
        /// The values read back from the new store and found equal to the Apple store's.
        public let valuesCompared: Int
        /// The links read back from the new store and found equal to the Apple store's.
        public let linksCompared: Int
        /// How long the import took, check included.
        public private(set) var duration: Duration = .zero

        init(plan: Plan, rows: [String: Int], valuesCompared: Int, linksCompared: Int) {
            self.plan = plan
            self.rows = rows
            self.valuesCompared = valuesCompared
            self.linksCompared = linksCompared
        }

        func finished(in duration: Duration) -> Report {
            var report = self
            report.duration = duration
            return report
        }

        public var description: String {
            let total = rows.values.reduce(0, +)
            var lines = ["Imported \(plan.store.path): \(total) model\(total == 1 ? "" : "s") in \(duration.formatted(.units(allowed: [.seconds, .milliseconds], width: .abbreviated)))"]
            lines += rows.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)" }
            lines.append("Checked: \(valuesCompared) value\(valuesCompared == 1 ? "" : "s") and \(linksCompared) link\(linksCompared == 1 ? "" : "s") read back equal to the Apple store's.")
            let dropped = plan.losses.filter(\.isAccepted)
            if !dropped.isEmpty {
                lines.append("Left behind, as accepted:")
                lines += dropped.map { "  \($0.entity)\($0.property.map { ".\($0)" } ?? ""): \($0.what)" }
            }
            return lines.joined(separator: "\n")
        }
    }
}
