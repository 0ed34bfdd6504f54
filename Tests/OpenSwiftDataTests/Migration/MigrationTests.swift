import Testing

/// Every scenario seeds a real store file with the old version's models in one container, then
/// opens it with the new version in another.
///
/// The tests are extensions of this suite, one file per scenario, each beside the versions it
/// migrates through: in the same file when no other test file uses them, otherwise in the
/// scenario's folder (`Notes/NoteSchemas.swift`, `Counters/CounterSchemas.swift`,
/// `Trips/TripsSchemas.swift`).
@Suite(.serialized) struct MigrationTests {}
