extension ModelContainer {
    /// Whether saves record persistent history, in every container of the process. Always on,
    /// as in SwiftData; the benchmark runner turns it off to measure what recording costs.
    @_spi(Benchmarks) public static var recordsPersistentHistory: Bool {
        get { StoreHistory.isRecording.load(ordering: .relaxed) }
        set { StoreHistory.isRecording.store(newValue, ordering: .relaxed) }
    }
}
