import Foundation
import Hummingbird
import OpenSwiftData
import OpenSwiftDataHummingbird
import OpenSwiftDataPostgres
import OpenSwiftDataServer
import SwiftDataSync
import SyncTestModels

// The sync tests' server: the test models on PostgreSQL (database schema <schema>, the sync's
// bookkeeping in <schema>_sync) behind Hummingbird on 127.0.0.1:<port>, serving the sync at
// /sync and, for the tests, the server's snapshot at GET /snapshot. Several may serve one
// schema: they take the sync's requests in turn (an advisory lock).
// Usage: SyncServerProcess <postgres URL> <schema> <port>. Says "listening <port>" once it serves
// (port 0: one the system picks).

let arguments = CommandLine.arguments
guard arguments.count == 4, let url = URL(string: arguments[1]), let port = Int(arguments[3]) else {
    print("usage: SyncServerProcess <postgres URL> <schema> <port>")
    exit(2)
}
let container = try ModelContainer(
    for: Schema(SyncTestModels.all), configurations: [PostgresConfiguration(url: url, databaseSchema: arguments[2])])
let ledger = try ModelContainer(
    for: SyncServer.ledgerSchema, configurations: [PostgresConfiguration("sync", url: url, databaseSchema: arguments[2] + "_sync")])
// Every server process of the tests' fleet on the schema takes requests in turn.
let fleet = try PostgresAdvisoryLock(url: url, name: "sync " + arguments[2])
let sync = try SyncServer(container: container, models: SyncTestModels.all, ledger: ledger, exclusively: fleet.withLock)
let feed = try ModelChangeFeed(container: container)

let router = Router()
router.group("sync").addSyncRoutes(sync, feed: feed)
router.get("snapshot") { _, _ in
    let snapshot = try await container.perform { _ in try sync.snapshot() }
    return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(data: try JSONEncoder().encode(snapshot))))
}
let app = Application(
    router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
    onServerRunning: { channel in
        FileHandle.standardOutput.write(Data("listening \(channel.localAddress?.port ?? port)\n".utf8))
    })
try await app.runService()
