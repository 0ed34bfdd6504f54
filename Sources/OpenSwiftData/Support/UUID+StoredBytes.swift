import Foundation

extension UUID {
    /// The UUID whose 16 bytes, in order, are `bytes`, as a store keeps one in a blob; `nil`
    /// when there are not exactly 16.
    init?(storedBytes bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 16 else { return nil }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: bytes) }
        self.init(uuid: uuid)
    }
}
