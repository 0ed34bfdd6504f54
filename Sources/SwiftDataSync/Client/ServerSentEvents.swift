import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reads a server-sent events response as it arrives, signalling each `change` event; the
/// stream ends with an error when the connection does (the server never ends it).
final class ServerSentEvents: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let continuation: AsyncThrowingStream<Void, any Error>.Continuation
    // Touched only by the session's delegate queue, one callback at a time.
    private var buffer = Data()

    private init(continuation: AsyncThrowingStream<Void, any Error>.Continuation) {
        self.continuation = continuation
    }

    /// The `change` events of the response to `request`.
    static func changes(of request: URLRequest) -> AsyncThrowingStream<Void, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Void, any Error>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let reader = ServerSentEvents(continuation: continuation)
        let configuration = URLSessionConfiguration.default
        // Heartbeats (every 20 s by default) come well within this; a connection silent for longer
        // is a dead one, and run(every:) connects again and syncs.
        configuration.timeoutIntervalForRequest = 50
        let session = URLSession(configuration: configuration, delegate: reader, delegateQueue: nil)
        let task = session.dataTask(with: request)
        continuation.onTermination = { _ in
            task.cancel()
            session.invalidateAndCancel()
        }
        task.resume()
        return stream
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else {
            continuation.finish(throwing: SyncError.server(status: status, message: "the events route answered \(status)"))
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        buffer += data
        let separator = Data("\n\n".utf8)
        while let end = buffer.range(of: separator) {
            let event = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
            buffer.removeSubrange(buffer.startIndex..<end.upperBound)
            if event.split(separator: "\n").contains("event: change") { continuation.yield() }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        continuation.finish(throwing: error ?? URLError(.networkConnectionLost))
    }
}
