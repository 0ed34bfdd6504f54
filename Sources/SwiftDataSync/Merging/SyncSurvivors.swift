/// Where a link naming a merged model leads: two models made on two nodes with the same unique
/// values are one model (``SyncedModelState/mergedInto``), so a link to the one merged away is
/// a link to the one that stayed, on every node, whichever it learnt of first.
public enum SyncSurvivors {
    /// The model a link naming `globalID` leads to: `globalID` itself, or the end of its chain
    /// of ``SyncedModelState/mergedInto`` (`mergedInto` gives a model's, `nil` when it was
    /// merged into none or is not known yet). A chain that comes back on itself ends at its
    /// least identifier, so every node ends at the same one.
    public static func survivor(of globalID: String, mergedInto: (String) throws -> String?) rethrows -> String {
        var current = globalID
        var seen: [String] = [globalID]
        while let next = try mergedInto(current) {
            if seen.contains(next) {
                // A loop, which only crafted states make: every member of it names the same end.
                return seen.drop { $0 != next }.min() ?? next
            }
            seen.append(next)
            current = next
        }
        return current
    }
}
