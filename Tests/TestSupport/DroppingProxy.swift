import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A TCP proxy on 127.0.0.1 in front of a server, that cuts a share of the connections it
/// carries: right away (the request never arrives), or as the server's answer starts (the
/// server did the work, the client never hears of it). Each connection's two directions are
/// pumped by threads of their own.
public final class DroppingProxy: @unchecked Sendable {
    /// The port clients connect to.
    public let port: Int
    private let upstreamPort: Int
    private let listener: Int32
    private let state: Mutex<(random: SplitMix, cutsRequests: Int, cutsAnswers: Int, dropsOneIn: Int, stopped: Bool)>

    /// A proxy to the server on 127.0.0.1:`upstreamPort` that cuts one connection in
    /// `dropsOneIn` (half before the request, half as the answer starts); `0` cuts none.
    public init(to upstreamPort: Int, dropsOneIn: Int, seed: UInt64) throws {
        self.upstreamPort = upstreamPort
        state = Mutex((SplitMix(seed: seed), 0, 0, dropsOneIn, false))
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(listener, 128) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptConnections() }
    }

    /// How many connections were cut before their request, and as their answer started.
    public var cuts: (requests: Int, answers: Int) { state.withLock { ($0.cutsRequests, $0.cutsAnswers) } }

    /// Changes the share of connections cut from now on.
    public func drop(oneIn: Int) { state.withLock { $0.dropsOneIn = oneIn } }

    public func stop() {
        state.withLock { $0.stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private enum Fate { case carry, cutRequest, cutAnswer }

    private func acceptConnections() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if state.withLock({ $0.stopped }) { return }
                continue
            }
            let fate: Fate = state.withLock { state in
                guard state.dropsOneIn > 0, Int.random(in: 0..<state.dropsOneIn, using: &state.random) == 0 else { return .carry }
                if Bool.random(using: &state.random) {
                    state.cutsRequests += 1
                    return .cutRequest
                }
                state.cutsAnswers += 1
                return .cutAnswer
            }
            if fate == .cutRequest {
                close(client)
                continue
            }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: upstreamPort)
            let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            guard connected == 0 else {
                close(server)
                close(client)
                continue
            }
            let closing = Closing(client: client, server: server)
            Thread.detachNewThread { Self.pump(from: client, to: server, cutting: false, closing) }
            Thread.detachNewThread { Self.pump(from: server, to: client, cutting: fate == .cutAnswer, closing) }
        }
    }

    /// Closes both ends once, when either direction ends.
    private final class Closing: Sendable {
        let client: Int32, server: Int32
        private let done = Mutex(false)
        init(client: Int32, server: Int32) { self.client = client; self.server = server }
        func close() {
            guard done.withLock({ let was = $0; $0 = true; return !was }) else { return }
            shutdown(client, Int32(SHUT_RDWR))
            shutdown(server, Int32(SHUT_RDWR))
            Glibc.close(client)
            Glibc.close(server)
        }
    }

    private static func pump(from source: Int32, to destination: Int32, cutting: Bool, _ closing: Closing) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            guard count > 0, !cutting else { break }
            var sent = 0
            while sent < count {
                let wrote = buffer.withUnsafeBytes { write(destination, $0.baseAddress! + sent, count - sent) }
                guard wrote > 0 else { closing.close(); return }
                sent += wrote
            }
        }
        closing.close()
    }
}
