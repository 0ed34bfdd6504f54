import Fluent
import FluentPostgresDriver
import Foundation
import Vapor

final class FluentWorld: Model, @unchecked Sendable {
    static let schema = "World"
    static let space: String? = "te_raw"
    @ID(custom: "id", generatedBy: .user) var id: Int32?
    @Field(key: "randomnumber") var randomNumber: Int32
    init() {}
}

final class FluentFortune: Model, @unchecked Sendable {
    static let schema = "Fortune"
    static let space: String? = "te_raw"
    @ID(custom: "id", generatedBy: .user) var id: Int32?
    @Field(key: "message") var message: String
    init() {}
}

extension WorldReply: Content {}

/// Fluent on Vapor, as TechEmpower's vapor-fluent entry: a model per row, `find` and `save`. It
/// reads the tables postgres-nio's server seeded.
enum FluentDriver {
    static func serve(_ url: URL, port: Int, pool: Int) async throws {
        let app = try await Application.make(.production)
        app.logger.logLevel = .error
        var configuration = try SQLPostgresConfiguration(url: url)
        configuration.coreConfiguration.tls = .disable
        let loops = System.coreCount
        app.databases.use(.postgres(configuration: configuration, maxConnectionsPerEventLoop: max(1, pool / loops)), as: .psql)
        @Sendable func world(_ request: Request) async throws -> FluentWorld {
            guard let world = try await FluentWorld.find(Int32(TechEmpower.randomID()), on: request.db) else { throw Abort(.notFound) }
            return world
        }
        app.get("db") { request async throws -> WorldReply in
            let world = try await world(request)
            return WorldReply(id: Int(world.id!), randomNumber: Int(world.randomNumber))
        }
        app.get("queries") { request async throws -> [WorldReply] in
            var replies: [WorldReply] = []
            for _ in 0..<TechEmpower.queryCount(request.query["queries"].map { Substring($0) }) {
                let world = try await world(request)
                replies.append(WorldReply(id: Int(world.id!), randomNumber: Int(world.randomNumber)))
            }
            return replies
        }
        app.get("updates") { request async throws -> [WorldReply] in
            var replies: [WorldReply] = []
            for _ in 0..<TechEmpower.queryCount(request.query["queries"].map { Substring($0) }) {
                let world = try await world(request)
                var number = TechEmpower.randomID()
                while number == Int(world.randomNumber) { number = TechEmpower.randomID() }
                world.randomNumber = Int32(number)
                try await world.save(on: request.db)
                replies.append(WorldReply(id: Int(world.id!), randomNumber: number))
            }
            return replies
        }
        app.get("fortunes") { request async throws -> Response in
            let rows = try await FluentFortune.query(on: request.db).all().map { (Int($0.id!), $0.message) }
            var headers = HTTPHeaders()
            headers.contentType = .html
            return Response(status: .ok, headers: headers, body: .init(string: TechEmpower.fortunesPage(rows)))
        }
        app.environment.arguments = ["techempower", "serve", "--hostname", "127.0.0.1", "--port", "\(port)"]
        do {
            try await app.execute()
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
    }
}
