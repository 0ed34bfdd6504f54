import OpenSwiftData

// The models the PostgresServerProcess executable saves, shared with the tests that open the
// same store from the test process.

/// One save of one server process: which process, and its number there.
@Model public final class Ticket {
    public var process: String
    public var serial: Int
    public init(process: String, serial: Int) {
        self.process = process
        self.serial = serial
    }
}

/// The row every save of every process upserts through its unique name.
@Model public final class Tally {
    @Attribute(.unique) public var name: String
    public var lastProcess: String
    public init(name: String, lastProcess: String) {
        self.name = name
        self.lastProcess = lastProcess
    }
}
