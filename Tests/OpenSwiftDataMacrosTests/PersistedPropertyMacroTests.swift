import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite struct PersistedPropertyMacroTests {
    /// The accessors route through the backing data and Observation; the peer is a placeholder for definite initialisation.
    @Test func storedProperty() {
        assertExpansion(
            #"""
            final class Trip {
                @_PersistedProperty
                var name: String
            }
            """#,
            expandedSource: #"""
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
            """#,
            macros: only("_PersistedProperty")
        )
    }

    /// The peer has no initializer even when the property has one, so a forgotten assignment stays a compile error. (This test harness drops `= .now` once get/set accessors exist; the compiler keeps it and runs it through the init accessor, as ModelCompileTests shows.)
    @Test func propertyWithInitialValue() {
        assertExpansion(
            #"""
            final class Trip {
                @_PersistedProperty
                var start: Date = .now
            }
            """#,
            expandedSource: #"""
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
            """#,
            macros: only("_PersistedProperty")
        )
    }

    /// Optionals need nothing special; a backticked name keeps its backticks in key paths only.
    @Test func optionalAndBacktickedNames() {
        assertExpansion(
            #"""
            final class Trip {
                @_PersistedProperty
                var notes: String?
                @_PersistedProperty
                public var `default`: Bool = false
            }
            """#,
            expandedSource: #"""
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
            """#,
            macros: only("_PersistedProperty")
        )
    }

    /// On a `let` or a computed property (which @Model never marks) it generates nothing; @Model reports the `let`.
    @Test func notAppliedToWhatCannotBePersisted() {
        assertExpansion(
            #"""
            final class Trip {
                @_PersistedProperty
                let code: String
                @_PersistedProperty
                var computed: Int { 1 }
            }
            """#,
            expandedSource: #"""
            final class Trip {
                let code: String
                var computed: Int { 1 }
            }
            """#,
            macros: only("_PersistedProperty")
        )
    }

    /// Outside a class, where `@Model` never attaches it, the key paths would have no class to
    /// be rooted in: nothing is generated.
    @Test func notAppliedOutsideAClass() {
        assertExpansion(
            #"""
            struct Trip {
                @_PersistedProperty
                var name: String
            }
            """#,
            expandedSource: #"""
            struct Trip {
                var name: String
            }
            """#,
            macros: only("_PersistedProperty")
        )
    }
}
