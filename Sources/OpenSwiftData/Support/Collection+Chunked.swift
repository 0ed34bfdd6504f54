extension Collection {
    /// The elements in arrays of at most `size`.
    func chunked(by size: Int) -> [[Element]] {
        var chunks: [[Element]] = []
        var chunk: [Element] = []
        for element in self {
            chunk.append(element)
            if chunk.count == size {
                chunks.append(chunk)
                chunk = []
            }
        }
        if !chunk.isEmpty { chunks.append(chunk) }
        return chunks
    }
}
