import CZlib
import Foundation

/// Raw DEFLATE (RFC 1951, no zlib header), through the system's zlib: the form of the model a
/// Core Data store keeps in `Z_MODELCACHE`.
enum RawDeflate {
    /// The bytes `data` inflates to; `nil` when `data` is not raw DEFLATE or ends early.
    static func inflate(_ data: Data, limit: Int = 64 << 20) -> Data? {
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        return run(&stream, on: data, limit: limit) { CZlib.inflate(&$0, Z_NO_FLUSH) }
    }

    /// `data` deflated, raw (what a Core Data store's model cache holds).
    static func deflate(_ data: Data) -> Data? {
        var stream = z_stream()
        guard deflateInit2_(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        return run(&stream, on: data, limit: .max) { CZlib.deflate(&$0, Z_FINISH) }
    }

    /// Feeds `data` to `stream`, calling `step` for each chunk of output until it says the
    /// stream ended (the output) or anything else (`nil`).
    private static func run(_ stream: inout z_stream, on data: Data, limit: Int, step: (inout z_stream) -> Int32) -> Data? {
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = [UInt8](data)
        let status: Int32 = input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            while true {
                let result = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    return step(&stream)
                }
                output.append(contentsOf: chunk[0..<(chunk.count - Int(stream.avail_out))])
                if result != Z_OK || output.count > limit { return result }
            }
        }
        return status == Z_STREAM_END ? output : nil
    }
}
