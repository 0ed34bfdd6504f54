import MacroTesting
import OpenSwiftDataMacros
import Testing

/// `@_PersistedProperty`, which `@Model` attaches to each persisted property: accessors routed
/// through the backing data and Observation, and a `_name` placeholder peer for definite
/// initialisation. (The expansion shown drops `= value` once get/set accessors exist; the
/// compiler keeps it and passes it to the init accessor.)
@Suite(.macros(["_PersistedProperty": PersistedPropertyMacro.self], indentationWidth: .spaces(4), record: .missing))
struct PersistedPropertyExpansionTests {
    /// Without an initial value, the init accessor always stores the value it is given.
    @Test func storedProperty() {
        assertMacro {
            """
            final class Trip {
                @_PersistedProperty
                var name: String
            }
            """
        } expansion: {
            #"""
            final class Trip {
                var name: String {
                    @storageRestrictions(accesses: _$backingData, initializes: _name)
                    init(initialValue) {
                        _$backingData.setValue(forKey: \.name, to: initialValue)
                        _name = _SwiftDataNoType()
                    }
                    get {
                        let keyPath = \Trip.name
                        _$observationRegistrar.access(self, keyPath: keyPath)
                        return self.getValue(forKey: keyPath)
                    }
                    set {
                        let keyPath = \Trip.name
                        _$observationRegistrar.withMutation(of: self, keyPath: keyPath) {
                            self.setValue(forKey: keyPath, to: newValue)
                        }
                    }
                }

                @Transient
                private var _name: _SwiftDataNoType
            }
            """#
        }
    }

    /// `willSet` and `didSet` run in the setter, inside the mutation, their parameters named as
    /// written; each body is a closure applied at once, so `return` leaves the observer only.
    @Test func propertyObservers() {
        assertMacro {
            """
            final class Counter {
                @_PersistedProperty
                var count: Int = 0 {
                    willSet(next) { guard next >= 0 else { return }; log.append("to \\(next)") }
                    didSet { mirror = "\\(oldValue) → \\(count)" }
                }
            }
            """
        } expansion: {
            #"""
            final class Counter {
                var count: Int {
                    willSet(next) { guard next >= 0 else { return }; log.append("to \(next)") }
                    didSet { mirror = "\(oldValue) → \(count)" }
                    @storageRestrictions(accesses: _$backingData, initializes: _count)
                    init(initialValue) {
                        if !_$backingData._$ignoresInitialValues {
                            _$backingData.setValue(forKey: \.count, to: initialValue)
                        }
                        _count = _SwiftDataNoType()
                    }

                    get {
                        let keyPath = \Counter.count
                        _$observationRegistrar.access(self, keyPath: keyPath)
                        return self.getValue(forKey: keyPath)
                    }

                    set {
                        let keyPath = \Counter.count
                        let oldValue = self.getValue(forKey: keyPath)
                        _$observationRegistrar.withMutation(of: self, keyPath: keyPath) {
                            _ = { [self] next in
                                guard next >= 0 else {
                                    return
                                };
                                log.append("to \(next)")
                            }(newValue)
                            self.setValue(forKey: keyPath, to: newValue)
                            _ = { [self] oldValue in
                                mirror = "\(oldValue) → \(count)"
                            }(oldValue)
                        }
                    }
                }

                @Transient
                private var _count: _SwiftDataNoType
            }
            """#
        }
    }

    /// With one, it skips it while the backing data ignores initial values (a model created over a loaded row).
    @Test func initialValue() {
        assertMacro {
            """
            final class Trip {
                @_PersistedProperty
                var start: Date = .now
            }
            """
        } expansion: {
            #"""
            final class Trip {
                var start: Date {
                    @storageRestrictions(accesses: _$backingData, initializes: _start)
                    init(initialValue) {
                        if !_$backingData._$ignoresInitialValues {
                            _$backingData.setValue(forKey: \.start, to: initialValue)
                        }
                        _start = _SwiftDataNoType()
                    }
                    get {
                        let keyPath = \Trip.start
                        _$observationRegistrar.access(self, keyPath: keyPath)
                        return self.getValue(forKey: keyPath)
                    }
                    set {
                        let keyPath = \Trip.start
                        _$observationRegistrar.withMutation(of: self, keyPath: keyPath) {
                            self.setValue(forKey: keyPath, to: newValue)
                        }
                    }
                }

                @Transient
                private var _start: _SwiftDataNoType
            }
            """#
        }
    }

    /// `T?` starts as nil, which counts as an initial value.
    @Test func optional() {
        assertMacro {
            """
            final class Trip {
                @_PersistedProperty
                var notes: String?
            }
            """
        } expansion: {
            #"""
            final class Trip {
                var notes: String? {
                    @storageRestrictions(accesses: _$backingData, initializes: _notes)
                    init(initialValue) {
                        if !_$backingData._$ignoresInitialValues {
                            _$backingData.setValue(forKey: \.notes, to: initialValue)
                        }
                        _notes = _SwiftDataNoType()
                    }
                    get {
                        let keyPath = \Trip.notes
                        _$observationRegistrar.access(self, keyPath: keyPath)
                        return self.getValue(forKey: keyPath)
                    }
                    set {
                        let keyPath = \Trip.notes
                        _$observationRegistrar.withMutation(of: self, keyPath: keyPath) {
                            self.setValue(forKey: keyPath, to: newValue)
                        }
                    }
                }

                @Transient
                private var _notes: _SwiftDataNoType
            }
            """#
        }
    }

    /// A backticked name keeps its backticks in key paths only.
    @Test func backtickedName() {
        assertMacro {
            """
            final class Trip {
                @_PersistedProperty
                public var `default`: Bool = false
            }
            """
        } expansion: {
            #"""
            final class Trip {
                public var `default`: Bool {
                    @storageRestrictions(accesses: _$backingData, initializes: _default)
                    init(initialValue) {
                        if !_$backingData._$ignoresInitialValues {
                            _$backingData.setValue(forKey: \.`default`, to: initialValue)
                        }
                        _default = _SwiftDataNoType()
                    }
                    get {
                        let keyPath = \Trip.`default`
                        _$observationRegistrar.access(self, keyPath: keyPath)
                        return self.getValue(forKey: keyPath)
                    }
                    set {
                        let keyPath = \Trip.`default`
                        _$observationRegistrar.withMutation(of: self, keyPath: keyPath) {
                            self.setValue(forKey: keyPath, to: newValue)
                        }
                    }
                }

                @Transient
                private var _default: _SwiftDataNoType
            }
            """#
        }
    }

    /// On a `let`, which `@Model` reports instead of marking, it generates nothing.
    @Test func letIsLeftAlone() {
        assertMacro {
            """
            final class Trip {
                @_PersistedProperty
                let code: String
            }
            """
        } expansion: {
            """
            final class Trip {
                let code: String
            }
            """
        }
    }

    @Test func computedPropertyIsLeftAlone() {
        assertMacro {
            """
            final class Trip {
                @_PersistedProperty
                var computed: Int { 1 }
            }
            """
        } expansion: {
            """
            final class Trip {
                var computed: Int { 1 }
            }
            """
        }
    }

    /// Outside a class the key paths would have no class to be rooted in: nothing is generated.
    @Test func outsideAClassIsLeftAlone() {
        assertMacro {
            """
            struct Trip {
                @_PersistedProperty
                var name: String
            }
            """
        } expansion: {
            """
            struct Trip {
                var name: String
            }
            """
        }
    }
}
