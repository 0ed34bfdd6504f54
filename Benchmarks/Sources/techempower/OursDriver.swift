import Foundation
import Hummingbird
import OpenSwiftData
import OpenSwiftDataHummingbird
import OpenSwiftDataPostgres

@Model final class World {
    #Unique<World>([\.id])
    var id: Int
    var randomNumber: Int
    init(id: Int, randomNumber: Int) {
        self.id = id
        self.randomNumber = randomNumber
    }
}

@Model final class Fortune {
    var id: Int
    var message: String
    init(id: Int, message: String) {
        self.id = id
        self.message = message
    }
}

/// OpenSwiftData on Hummingbird: each request's work through `context.modelContext`.
enum OursDriver {
    static func configuration(_ url: URL, pool: Int) -> PostgresConfiguration {
        var configuration = PostgresConfiguration(schema: Schema([World.self, Fortune.self]), url: url, databaseSchema: "te_ours")
        configuration.maximumConnections = pool
        return configuration
    }

    static func container(_ url: URL, pool: Int) throws -> ModelContainer {
        try ModelContainer(for: Schema([World.self, Fortune.self]), configurations: [configuration(url, pool: pool)])
    }

    static func seed(_ url: URL) async throws {
        let container = try container(url, pool: 1)
        try await container.perform { context in
            try context.delete(model: World.self)
            try context.delete(model: Fortune.self)
            for id in 1...TechEmpower.worldCount { context.insert(World(id: id, randomNumber: TechEmpower.randomID())) }
            for (id, message) in TechEmpower.fortunes { context.insert(Fortune(id: id, message: message)) }
            try context.save()
        }
        await container.close()
    }

    static func world(_ id: Int, in context: ModelContext) throws -> World {
        var descriptor = FetchDescriptor<World>(predicate: #Predicate { $0.id == id })
        descriptor.fetchLimit = 1
        return try context.fetch(descriptor)[0]
    }

    static func serve(_ url: URL, port: Int, pool: Int) async throws {
        let container = try container(url, pool: pool)
        let router = Router(context: BasicModelRequestContext.self)
        router.add(middleware: ModelContainerMiddleware(container))
        router.get("db") { _, context -> WorldReply in
            try await context.modelContext.perform { models in
                let world = try world(TechEmpower.randomID(), in: models)
                return WorldReply(id: world.id, randomNumber: world.randomNumber)
            }
        }
        router.get("queries") { request, context -> [WorldReply] in
            let count = TechEmpower.queryCount(request.uri.queryParameters["queries"])
            return try await context.modelContext.perform { models in
                try (0..<count).map { _ in
                    let world = try world(TechEmpower.randomID(), in: models)
                    return WorldReply(id: world.id, randomNumber: world.randomNumber)
                }
            }
        }
        router.get("updates") { request, context -> [WorldReply] in
            let count = TechEmpower.queryCount(request.uri.queryParameters["queries"])
            return try await context.modelContext.perform { models in
                var replies: [WorldReply] = []
                for _ in 0..<count {
                    let world = try world(TechEmpower.randomID(), in: models)
                    var number = TechEmpower.randomID()
                    while number == world.randomNumber { number = TechEmpower.randomID() }
                    world.randomNumber = number
                    replies.append(WorldReply(id: world.id, randomNumber: number))
                }
                try models.save()
                return replies
            }
        }
        router.get("fortunes") { _, context -> HTML in
            let rows = try await context.modelContext.perform { models in
                try models.fetch(FetchDescriptor<Fortune>()).map { ($0.id, $0.message) }
            }
            return HTML(TechEmpower.fortunesPage(rows))
        }
        var app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        app.addServices(ModelContainerService(container))
        try await app.runService()
    }
}

extension WorldReply: ResponseEncodable {}

/// An HTML page as a Hummingbird response.
struct HTML: ResponseGenerator {
    let text: String
    init(_ text: String) { self.text = text }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
