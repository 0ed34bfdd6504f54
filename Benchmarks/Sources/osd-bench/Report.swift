import Foundation

/// Markdown tables: one per case, then a summary of ratios at each case's largest size.
struct Report {
    var results: [BenchResult]
    var cases: [BenchCase]
    var tier: String
    /// Where the results came from, when the tables are rebuilt from a file (no date then).
    var source: String? = nil

    /// Per-row time at the largest size over per-row time at the smallest.
    static let superLinearLimit = 3.0

    func result(_ id: String, _ driver: String, _ size: Int) -> BenchResult? {
        results.first { $0.caseID == id && $0.driver == driver && $0.size == size }
    }

    func growth(_ id: String, _ driver: String) -> Double? {
        let mine = results.filter { $0.caseID == id && $0.driver == driver }.sorted { $0.size < $1.size }
        guard let small = mine.first, let large = mine.last, large.size > small.size else { return nil }
        return (large.median / Double(large.rows)) / (small.median / Double(small.rows))
    }

    /// Total time at the largest size over total time at the smallest.
    func totalGrowth(_ id: String, _ driver: String) -> Double? {
        let mine = results.filter { $0.caseID == id && $0.driver == driver }.sorted { $0.size < $1.size }
        guard let small = mine.first, let large = mine.last, large.size > small.size else { return nil }
        return large.median / small.median
    }

    func ratio(_ ours: BenchResult, _ driver: String) -> String {
        guard let other = result(ours.caseID, driver, ours.size) else { return "–" }
        return fmt(ours.median / other.median, 2)
    }

    func markdown() -> String {
        var lines: [String] = []
        var machine = utsname()
        uname(&machine)
        let release = withUnsafeBytes(of: &machine.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let cpus = ProcessInfo.processInfo.activeProcessorCount
        let sqlite = results.first?.sqlite ?? "?"
        let date = ISO8601DateFormatter().string(from: Date())
        let when = source.map { "tables rebuilt from \($0) on" } ?? "\(date),"
        lines.append("Tier \(tier), \(when) Linux \(release), \(cpus) cores, SQLite \(sqlite), PRAGMAs journal_mode=WAL synchronous=NORMAL (all drivers). Times are the median of the timed runs, after one warm-up, each (case, driver, size) in its own process; peak RSS is that process's `ru_maxrss`.")
        lines.append("")
        var summary: [String] = []
        for benchCase in cases {
            let rows = results.filter { $0.caseID == benchCase.id }
            guard !rows.isEmpty else { continue }
            lines.append("### \(benchCase.id) — \(benchCase.title)")
            lines.append("")
            let yardsticks = benchCase.yardsticks
            lines.append("| driver | size | runs | min s | median s | rows/s | CPU s | peak RSS MB | \(yardsticks.map { "ours/\($0.label)" }.joined(separator: " | ")) |")
            lines.append("|---|---:|---:|---:|---:|---:|---:|---:|" + String(repeating: "---:|", count: yardsticks.count))
            for size in Set(rows.map(\.size)).sorted() {
                for driver in benchCase.drivers {
                    guard let m = result(benchCase.id, driver, size) else { continue }
                    let isOurs = driver.hasPrefix("ours")
                    let ratios = yardsticks.map { isOurs ? ratio(m, $0.driver) : "" }.joined(separator: " | ")
                    lines.append("| \(driver) | \(size) | \(m.runs) | \(fmt(m.min, 4)) | \(fmt(m.median, 4)) | \(fmt(m.rowsPerSecond, 0)) | \(fmt(m.cpuMedian, 3)) | \(fmt(Double(m.peakRSSKB) / 1024, 1)) | \(ratios) |")
                }
            }
            lines.append("")
            if benchCase.repetitions > 1 {
                let each = benchCase.drivers.compactMap { driver in
                    result(benchCase.id, driver, rows.map(\.size).max()!).map { "\(driver) \(fmt($0.median / Double(benchCase.repetitions) * 1000, 2)) ms" }
                }
                lines.append("Median time of one of the run's \(benchCase.repetitions) repetitions: \(each.joined(separator: ", ")).")
                lines.append("")
            }
            if benchCase.launches > 0 {
                for size in Set(rows.map(\.size)).sorted() {
                    let each = benchCase.drivers.compactMap { driver in
                        result(benchCase.id, driver, size).map { m in
                            "\(driver) \(fmt(m.median * 1000, 2)) / \(m.p95.map { fmt($0 * 1000, 2) } ?? "–") ms"
                        }
                    }
                    lines.append("At \(size), each run its own fresh process (\(benchCase.launches) of them), p50 / p95: \(each.joined(separator: ", ")).")
                }
                lines.append("")
            }
            if benchCase.drivers.contains(where: RowObjects.drivers.contains) {
                for size in Set(rows.map(\.size)).sorted() {
                    guard let observable = result(benchCase.id, "raw-observable", size) else { continue }
                    let floors = RowObjects.drivers.compactMap { driver in
                        result(benchCase.id, driver, size).map { "\(driver) \(ratio($0, "raw"))× raw" }
                    }
                    let ours = result(benchCase.id, "ours", size).map { "; ours \(fmt($0.median / observable.median, 2))× raw-observable" } ?? ""
                    lines.append("Rows as objects at \(size): \(floors.joined(separator: ", "))\(ours).")
                }
                lines.append("")
            }
            let growths = benchCase.drivers.compactMap { driver in growth(benchCase.id, driver).map { (driver, $0) } }
            if !growths.isEmpty {
                let text = growths.map { "\($0.0) \(fmt($0.1, 2))×" }.joined(separator: ", ")
                let flagged = growths.filter { $0.1 > Self.superLinearLimit }.map(\.0)
                lines.append("Per-row cost, largest size over smallest: \(text)."
                    + (flagged.isEmpty ? "" : " **SUPER-LINEAR (> \(Int(Self.superLinearLimit))×): \(flagged.joined(separator: ", "))**"))
                lines.append("")
            }
            if benchCase.constantTime {
                let totals = benchCase.drivers.compactMap { driver in totalGrowth(benchCase.id, driver).map { (driver, $0) } }
                let text = totals.map { "\($0.0) \(fmt($0.1, 2))×" }.joined(separator: ", ")
                let flagged = totals.filter { $0.1 > Self.superLinearLimit }.map(\.0)
                lines.append("Expected O(1); total time, largest size over smallest: \(text)."
                    + (flagged.isEmpty ? "" : " **GROWS WITH N: \(flagged.joined(separator: ", "))**"))
                lines.append("")
            }
            let largest = rows.map(\.size).max()!
            for driver in benchCase.drivers where driver.hasPrefix("ours") {
                guard let m = result(benchCase.id, driver, largest) else { continue }
                let g = growth(benchCase.id, driver)
                let total = benchCase.constantTime ? totalGrowth(benchCase.id, driver) : nil
                let grows = total.map { $0 > Self.superLinearLimit ? "; time ×\(fmt($0, 0)) with N, expected O(1) ⚠" : "" } ?? ""
                let growthText = (g.map { "\(fmt($0, 2))×\($0 > Self.superLinearLimit ? " ⚠" : "")" } ?? "–") + grows
                // PostgreSQL cases: postgres-nio in the raw column, Fluent in GRDB's.
                let summaryRatios = benchCase.onPostgres
                    ? "\(ratio(m, "postgres-nio")) | \(ratio(m, "fluent")) | –"
                    : "\(ratio(m, "raw")) | \(ratio(m, "grdb")) | \(ratio(m, "grdb-record"))"
                summary.append("| \(benchCase.id) | \(driver) | \(largest) | \(fmt(m.median, 4)) | \(summaryRatios) | \(fmt(Double(m.peakRSSKB) / 1024, 1)) | \(growthText) |")
            }
        }
        if !summary.isEmpty {
            lines.append("### Summary (largest size of each case)")
            lines.append("")
            lines.append("| case | driver | size | ours median s | ours/raw (P: postgres-nio) | ours/GRDB (P: Fluent) | ours/GRDB-record | ours peak RSS MB | per-row growth |")
            lines.append("|---|---|---:|---:|---:|---:|---:|---:|---:|")
            lines.append(contentsOf: summary)
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }
}

/// A number with a fixed count of decimals.
func fmt(_ value: Double, _ decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
}
