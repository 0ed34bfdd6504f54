import ArgumentParser
import CSQLite
import Foundation

@main
struct OSDBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "osd-bench",
        abstract: "OpenSwiftData beside GRDB and the raw SQLite C API.",
        subcommands: [RunAll.self, Child.self, Tables.self],
        defaultSubcommand: RunAll.self)
}

/// What one child process measured.
struct BenchResult: Codable {
    var caseID: String
    var driver: String
    var size: Int
    var rows: Int
    var runs: Int
    var warmup: Double
    var times: [Double]
    var min: Double
    var median: Double
    var cpuMedian: Double
    var rowsPerSecond: Double
    var peakRSSKB: Int
    var checksum: Int
    var pragmas: String
    var sqlite: String
    /// For a case timed over fresh processes: their 95th-percentile time (`median` is the 50th).
    var p95: Double?

    enum CodingKeys: String, CodingKey {
        case caseID = "case", driver, size, rows, runs, warmup, times, min, median
        case cpuMedian = "cpu_median", rowsPerSecond = "rows_per_s", peakRSSKB = "peak_rss_kb", checksum, pragmas, sqlite, p95
    }
}

extension BenchResult {
    /// The result of `launches`, each the single cold run of its own process.
    init(launches: [BenchResult]) {
        self = launches[0]
        times = launches.flatMap(\.times)
        runs = times.count
        warmup = 0
        min = times.min() ?? .nan
        median = osd_bench.median(times)
        p95 = percentile(times, 0.95)
        cpuMedian = osd_bench.median(launches.map(\.cpuMedian))
        rowsPerSecond = Double(rows) / median
        peakRSSKB = launches.map(\.peakRSSKB).max() ?? 0
    }
}

func monotonic() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func selfUsage() -> rusage {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return usage
}

func cpuSeconds(_ u: rusage) -> Double {
    Double(u.ru_utime.tv_sec) + Double(u.ru_utime.tv_usec) / 1e6 + Double(u.ru_stime.tv_sec) + Double(u.ru_stime.tv_usec) / 1e6
}

/// The value below which `fraction` of `values` fall (nearest rank).
func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((fraction * Double(sorted.count)).rounded(.up))
    return sorted[Swift.max(rank, 1) - 1]
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// The hidden subcommand: one (case, driver, size) in this process; prints one JSON line.
struct Child: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "child", shouldDisplay: false)

    @Option var `case`: String
    @Option var driver: String
    @Option var size: Int
    @Option var runs: Int?
    @Option var dir: String
    @Flag(help: "Only the untimed setup (a case timed over fresh processes does it once, here)") var prepare = false
    @Flag(help: "One timed run, no warm-up and no setup: the process is as fresh as a launched app") var cold = false

    func run() throws {
        guard let benchCase = allCases.first(where: { $0.id == `case` }) else {
            throw ValidationErrorText("unknown case \(`case`)")
        }
        let job = try makeJob(case: `case`, driver: driver, size: size, dir: URL(fileURLWithPath: dir))
        if !cold { try job.once() }
        if prepare { return }
        func once() throws -> (wall: Double, cpu: Double, checksum: Int) {
            try job.before()
            let cpu0 = cpuSeconds(selfUsage())
            let start = monotonic()
            let checksum = try job.body()
            let wall = monotonic() - start
            let cpu = cpuSeconds(selfUsage()) - cpu0
            try job.after()
            return (wall, cpu, checksum)
        }
        let warm: (wall: Double, cpu: Double, checksum: Int) = cold ? (0, 0, 0) : try once()
        var k = cold ? 1 : runs ?? (size >= 1_000_000 ? 3 : 5)
        if runs == nil, warm.wall > 20 { k = 1 }
        var times: [Double] = []
        var cpus: [Double] = []
        var checksum = warm.checksum
        for _ in 0..<k {
            let run = try once()
            times.append(run.wall)
            cpus.append(run.cpu)
            checksum = run.checksum
        }
        let rows = benchCase.rows(size)
        let med = median(times)
        let result = BenchResult(
            caseID: `case`, driver: driver, size: size, rows: rows, runs: k, warmup: warm.wall, times: times,
            min: times.min() ?? .nan, median: med, cpuMedian: median(cpus), rowsPerSecond: Double(rows) / med,
            peakRSSKB: Int(selfUsage().ru_maxrss), checksum: checksum,
            pragmas: "journal_mode=WAL synchronous=NORMAL", sqlite: String(cString: sqlite3_libversion()))
        let data = try JSONEncoder().encode(result)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}

struct RunAll: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run the cases, each (case, driver, size) in its own process.")

    @Option(help: "quick (up to 200k rows) or full (1M rows)") var tier: String = "quick"
    @Option(help: "Comma-separated case IDs, e.g. A1,B2") var cases: String?
    @Option(help: "Comma-separated drivers (raw, grdb, grdb-record, ours, ours-each)") var drivers: String?
    @Option(help: "Comma-separated sizes, replacing the tier's") var sizes: String?
    @Option(help: "Timed runs per child (default 5, 3 at 1M rows)") var runs: Int?
    @Option(help: "Append JSON lines here") var out: String?
    @Option(help: "Write the Markdown tables here") var markdown: String?

    func run() throws {
        guard tier == "quick" || tier == "full" else { throw ValidationErrorText("--tier is quick or full") }
        let wanted = cases.map { Set($0.split(separator: ",").map(String.init)) }
        let wantedDrivers = drivers.map { Set($0.split(separator: ",").map(String.init)) }
        var chosen = allCases.filter { wanted?.contains($0.id) ?? true }
        if PostgresBench.url == nil, chosen.contains(where: \.onPostgres) {
            FileHandle.standardError.write(Data("The PostgreSQL cases are skipped: set OSD_POSTGRES_URL (Benchmarks/postgres.sh starts a server).\n".utf8))
            chosen.removeAll(where: \.onPostgres)
        }
        if let wanted, let unknown = wanted.first(where: { id in !allCases.contains { $0.id == id } }) {
            throw ValidationErrorText("unknown case \(unknown); known: \(allCases.map(\.id).joined(separator: ","))")
        }
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("osd-bench-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let outHandle: FileHandle? = try out.map { path in
            if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            handle.seekToEndOfFile()
            return handle
        }
        var results: [BenchResult] = []
        for benchCase in chosen {
            let caseSizes = sizes.map { $0.split(separator: ",").compactMap { Int($0) } } ?? (tier == "quick" ? benchCase.quick : benchCase.full)
            for size in caseSizes {
                for driver in benchCase.drivers where wantedDrivers?.contains(driver) ?? true {
                    FileHandle.standardError.write(Data("\(benchCase.id) \(driver) \(size)… ".utf8))
                    let arguments = ["child", "--case", benchCase.id, "--driver", driver, "--size", "\(size)", "--dir", dir.path]
                    let measured: BenchResult?
                    if benchCase.launches > 0 {
                        var launches: [BenchResult] = []
                        _ = try child(executable, arguments + ["--prepare"])
                        for _ in 0..<benchCase.launches {
                            guard let launch = try child(executable, arguments + ["--cold"]) else { break }
                            launches.append(launch)
                        }
                        measured = launches.count == benchCase.launches ? BenchResult(launches: launches) : nil
                    } else {
                        measured = try child(executable, arguments + (runs.map { ["--runs", "\($0)"] } ?? []))
                    }
                    guard let result = measured else { continue }
                    let p95 = result.p95.map { ", p95 \(fmt($0, 4)) s" } ?? ""
                    FileHandle.standardError.write(Data("median \(fmt(result.median, 4)) s\(p95), \(fmt(result.rowsPerSecond, 0)) rows/s, \(result.peakRSSKB / 1024) MB\n".utf8))
                    outHandle?.write(try JSONEncoder().encode(result) + Data("\n".utf8))
                    results.append(result)
                }
            }
        }
        try? outHandle?.close()
        let report = Report(results: results, cases: chosen, tier: tier).markdown()
        print(report)
        if let markdown { try report.write(toFile: markdown, atomically: true, encoding: .utf8) }
    }
}

/// Runs the child process with `arguments`; its result, or `nil` when it printed none (as
/// `--prepare` does) or failed (reported).
func child(_ executable: String, _ arguments: [String]) throws -> BenchResult? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        FileHandle.standardError.write(Data("FAILED (status \(process.terminationStatus))\n".utf8))
        return nil
    }
    guard let line = String(decoding: output, as: UTF8.self).split(separator: "\n").last else { return nil }
    return try? JSONDecoder().decode(BenchResult.self, from: Data(line.utf8))
}

/// Rebuilds the Markdown tables from JSON lines written by `--out`.
struct Tables: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tables", abstract: "Print the Markdown tables of a JSON-lines results file.")

    @Argument(help: "A file written by --out") var file: String
    @Option(help: "The tier named in the header") var tier: String = "?"

    func run() throws {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let decoder = JSONDecoder()
        let results = try text.split(separator: "\n").map { try decoder.decode(BenchResult.self, from: Data($0.utf8)) }
        let ids = Set(results.map(\.caseID))
        print(Report(results: results, cases: allCases.filter { ids.contains($0.id) }, tier: tier, source: file).markdown())
    }
}
