import Foundation
import Hummingbird
import HummingbirdTesting
import OpenSwiftData
import OpenSwiftDataHummingbird
import Testing

/// A Hummingbird application with the container as a service and the request's models in its
/// context, exercised over HTTP: OpenSwiftData's errors answered with their statuses, and the
/// container closed when the application shuts down.
@Suite struct HummingbirdIntegrationTests {
    static func application(_ container: ModelContainer) -> some ApplicationProtocol {
        let router = Router(context: BasicModelRequestContext.self)
        router.add(middleware: ModelContainerMiddleware(container))
        router.post("notes") { request, context -> NoteReply in
            let note = try await request.decode(as: NoteReply.self, context: context)
            return try await NoteHandlers.create(note, folder: request.uri.queryParameters["folder"].map(String.init), in: context.modelContext)
        }
        router.get("notes") { _, context in try await NoteHandlers.list(in: context.modelContext) }
        router.get("notes/:slug") { _, context in
            try await NoteHandlers.note(try context.parameters.require("slug"), in: context.modelContext)
        }
        router.put("notes/:slug/slug/:new") { _, context in
            try await NoteHandlers.rename(try context.parameters.require("slug"), to: try context.parameters.require("new"), in: context.modelContext)
        }
        router.delete("folders/:name") { _, context -> HTTPResponse.Status in
            try await NoteHandlers.deleteFolder(try context.parameters.require("name"), in: context.modelContext)
            return .noContent
        }
        var app = Application(router: router)
        app.addServices(ModelContainerService(container))
        return app
    }

    @Test func routesUseTheRequestsModelsAndAnswerErrorsWithTheirStatus() async throws {
        let container = try serverTestContainer()
        try await Self.application(container).test(.live) { client in
            for (slug, title) in [("b", "Beta"), ("a", "Alpha")] {
                let body = ByteBuffer(data: try JSONEncoder().encode(NoteReply(slug: slug, title: title)))
                try await client.execute(uri: "/notes?folder=work", method: .post, body: body) { response in
                    #expect(response.status == .ok)
                }
            }
            let listed = try await client.execute(uri: "/notes", method: .get) { response in
                try JSONDecoder().decode([NoteReply].self, from: Data(buffer: response.body))
            }
            #expect(listed == [NoteReply(slug: "a", title: "Alpha"), NoteReply(slug: "b", title: "Beta")])
            try await client.execute(uri: "/notes/zzz", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(String(buffer: response.body).contains("no Note has the identifier zzz"))
            }
            try await client.execute(uri: "/notes/b/slug/a", method: .put) { response in
                #expect(response.status == .conflict)
                #expect(String(buffer: response.body).contains("unique attribute"))
            }
            try await client.execute(uri: "/folders/work", method: .delete) { response in
                #expect(response.status == .unprocessableContent)
            }
            let kept = try await client.execute(uri: "/notes/b", method: .get) { response in
                try JSONDecoder().decode(NoteReply.self, from: Data(buffer: response.body))
            }
            #expect(kept == NoteReply(slug: "b", title: "Beta"))
        }
        // The application shut down, and its service closed the container.
        await #expect(throws: SwiftDataError.loadIssueModelContainer) {
            try await container.perform { try $0.fetchCount(FetchDescriptor<Note>()) }
        }
    }
}
extension NoteReply: ResponseCodable {}
