import Foundation
import OpenSwiftData

// The models our driver uses. Raw and GRDB drivers read and write the same tables (the store's
// own layout: table named after the entity, one column per attribute, `_pk` INTEGER PRIMARY KEY
// AUTOINCREMENT), so every driver runs the same plan on the same file.

/// Ten integers, as in GRDB's own insert and fetch benchmarks.
enum ItemsV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Item.self] }

    @Model final class Item {
        var i0: Int
        var i1: Int
        var i2: Int
        var i3: Int
        var i4: Int
        var i5: Int
        var i6: Int
        var i7: Int
        var i8: Int
        var i9: Int
        init(_ value: Int) {
            i0 = value; i1 = value; i2 = value; i3 = value; i4 = value
            i5 = value; i6 = value; i7 = value; i8 = value; i9 = value
        }
    }
}

typealias Item = ItemsV1.Item

/// The user of the Emerge / Bartlett comparisons.
enum UsersV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [User.self] }

    @Model final class User {
        @Attribute(.unique) var id: UUID
        var firstName: String
        var surname: String
        var age: Int
        init(id: UUID, firstName: String, surname: String, age: Int) {
            self.id = id
            self.firstName = firstName
            self.surname = surname
            self.age = age
        }
    }
}

typealias User = UsersV1.User

/// G1: an optional and a defaulted attribute added.
enum UsersV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [User.self] }

    @Model final class User {
        @Attribute(.unique) var id: UUID
        var firstName: String
        var surname: String
        var age: Int
        var nickname: String?
        var score: Int = 0
        init(id: UUID, firstName: String, surname: String, age: Int) {
            self.id = id
            self.firstName = firstName
            self.surname = surname
            self.age = age
        }
    }
}

/// G2: `surname` renamed `lastName`.
enum UsersV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [User.self] }

    @Model final class User {
        @Attribute(.unique) var id: UUID
        var firstName: String
        @Attribute(originalName: "surname") var lastName: String
        var age: Int
        init(id: UUID, firstName: String, lastName: String, age: Int) {
            self.id = id
            self.firstName = firstName
            self.lastName = lastName
            self.age = age
        }
    }
}

/// G4: a new `fullName` derived from two others, row by row, in Swift.
enum UsersV4: VersionedSchema {
    static let versionIdentifier = Schema.Version(4, 0, 0)
    static var models: [any PersistentModel.Type] { [User.self] }

    @Model final class User {
        @Attribute(.unique) var id: UUID
        var firstName: String
        var surname: String
        var age: Int
        var fullName: String
        init(id: UUID, firstName: String, surname: String, age: Int, fullName: String) {
            self.id = id
            self.firstName = firstName
            self.surname = surname
            self.age = age
            self.fullName = fullName
        }
    }
}

/// G3: an index on `firstName`.
enum UsersV5: VersionedSchema {
    static let versionIdentifier = Schema.Version(5, 0, 0)
    static var models: [any PersistentModel.Type] { [User.self] }

    @Model final class User {
        #Index<User>([\.firstName])
        @Attribute(.unique) var id: UUID
        var firstName: String
        var surname: String
        var age: Int
        init(id: UUID, firstName: String, surname: String, age: Int) {
            self.id = id
            self.firstName = firstName
            self.surname = surname
            self.age = age
        }
    }
}

/// G5: `age` becomes optional. SQLite cannot drop a `NOT NULL` in place, so the table is rebuilt.
enum UsersV6: VersionedSchema {
    static let versionIdentifier = Schema.Version(6, 0, 0)
    static var models: [any PersistentModel.Type] { [User.self] }

    @Model final class User {
        @Attribute(.unique) var id: UUID
        var firstName: String
        var surname: String
        var age: Int?
        init(id: UUID, firstName: String, surname: String, age: Int?) {
            self.id = id
            self.firstName = firstName
            self.surname = surname
            self.age = age
        }
    }
}

/// G6: G1's attributes and G4's derived `fullName`, reached from V1 through V2.
enum UsersV7: VersionedSchema {
    static let versionIdentifier = Schema.Version(7, 0, 0)
    static var models: [any PersistentModel.Type] { [User.self] }

    @Model final class User {
        @Attribute(.unique) var id: UUID
        var firstName: String
        var surname: String
        var age: Int
        var nickname: String?
        var score: Int = 0
        var fullName: String
        init(id: UUID, firstName: String, surname: String, age: Int, fullName: String) {
            self.id = id
            self.firstName = firstName
            self.surname = surname
            self.age = age
            self.fullName = fullName
        }
    }
}

enum PlanG1: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [UsersV1.self, UsersV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: UsersV1.self, toVersion: UsersV2.self)] }
}

enum PlanG2: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [UsersV1.self, UsersV3.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: UsersV1.self, toVersion: UsersV3.self)] }
}

enum PlanG4: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [UsersV1.self, UsersV4.self] }
    static var stages: [MigrationStage] { [fullName] }
    static let fullName = MigrationStage.transform(
        fromVersion: UsersV1.self, toVersion: UsersV4.self, model: UsersV1.User.self, to: UsersV4.User.self
    ) { old, new in
        new.fullName = old.firstName + " " + old.surname
    }
}

enum PlanG3: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [UsersV1.self, UsersV5.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: UsersV1.self, toVersion: UsersV5.self)] }
}

enum PlanG5: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [UsersV1.self, UsersV6.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: UsersV1.self, toVersion: UsersV6.self)] }
}

enum PlanG6: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [UsersV1.self, UsersV2.self, UsersV7.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: UsersV1.self, toVersion: UsersV2.self), fullName] }
    static let fullName = MigrationStage.transform(
        fromVersion: UsersV2.self, toVersion: UsersV7.self, model: UsersV2.User.self, to: UsersV7.User.self
    ) { old, new in
        new.fullName = old.firstName + " " + old.surname
    }
}

/// H1: G6's users with an email address added.
enum UsersV8: VersionedSchema {
    static let versionIdentifier = Schema.Version(8, 0, 0)
    static var models: [any PersistentModel.Type] { [User.self] }

    @Model final class User {
        @Attribute(.unique) var id: UUID
        var firstName: String
        var surname: String
        var age: Int
        var nickname: String?
        var score: Int = 0
        var fullName: String
        var email: String?
        init(id: UUID, firstName: String, surname: String, age: Int, fullName: String) {
            self.id = id
            self.firstName = firstName
            self.surname = surname
            self.age = age
            self.fullName = fullName
        }
    }
}

/// H1: V8 with the surname renamed to lastName.
enum UsersV9: VersionedSchema {
    static let versionIdentifier = Schema.Version(9, 0, 0)
    static var models: [any PersistentModel.Type] { [User.self] }

    @Model final class User {
        @Attribute(.unique) var id: UUID
        var firstName: String
        @Attribute(originalName: "surname") var lastName: String
        var age: Int
        var nickname: String?
        var score: Int = 0
        var fullName: String
        var email: String?
        init(id: UUID, firstName: String, lastName: String, age: Int, fullName: String) {
            self.id = id
            self.firstName = firstName
            self.lastName = lastName
            self.age = age
            self.fullName = fullName
        }
    }
}

/// H1: five versions, a transform among them.
enum PlanH1: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [UsersV1.self, UsersV2.self, UsersV7.self, UsersV8.self, UsersV9.self] }
    static var stages: [MigrationStage] {
        [.lightweight(fromVersion: UsersV1.self, toVersion: UsersV2.self), PlanG6.fullName,
         .lightweight(fromVersion: UsersV7.self, toVersion: UsersV8.self),
         .lightweight(fromVersion: UsersV8.self, toVersion: UsersV9.self)]
    }
}

/// D1–D3: the object graph of the Emerge "complex" comparison — schools, their students, five
/// grades per student — with cascading deletes down the graph.
enum SchoolsV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [School.self, Student.self, Grade.self] }

    @Model final class School {
        var name: String
        @Relationship(deleteRule: .cascade, inverse: \Student.school) var students: [Student] = []
        init(name: String) { self.name = name }
    }

    @Model final class Student {
        var name: String
        var school: School?
        @Relationship(deleteRule: .cascade, inverse: \Grade.student) var grades: [Grade] = []
        init(name: String, school: School) {
            self.name = name
            self.school = school
        }
    }

    @Model final class Grade {
        var subject: String
        var letter: String
        var student: Student?
        init(subject: String, letter: String, student: Student) {
            self.subject = subject
            self.letter = letter
            self.student = student
        }
    }
}

typealias School = SchoolsV1.School
typealias Student = SchoolsV1.Student
typealias Grade = SchoolsV1.Grade

/// The graph's shape: 1 000 schools, students spread over them in turn, a grade in each
/// subject per student; about one student in five has an A in Physics.
enum GraphSeed {
    static let schools = 1_000
    static let subjects = ["Physics", "Math", "History", "Art", "Biology"]
    static let letters = ["A", "B", "C", "D", "F"]
    static func schoolName(_ i: Int) -> String { "School \(i)" }
    static func studentName(_ i: Int) -> String { "Student \(i)" }
    static func letter(student i: Int, subject: Int) -> String { letters[(i &* 7 &+ subject &* 3) % letters.count] }
}

/// B1's baseline: the same fields in a plain Swift class.
final class PlainUser {
    var id: UUID
    var firstName: String
    var surname: String
    var age: Int
    init(id: UUID, firstName: String, surname: String, age: Int) {
        self.id = id
        self.firstName = firstName
        self.surname = surname
        self.age = age
    }
}

/// Values the fetch drivers materialise into.
struct ItemValue {
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
}

struct UserValue {
    var id: UUID
    var firstName: String
    var surname: String
    var age: Int
}

extension ItemValue {
    /// The item `row` is on, its columns `_pk` first.
    init(raw row: RawStatement) {
        self.init(
            i0: row.int(1), i1: row.int(2), i2: row.int(3), i3: row.int(4), i4: row.int(5),
            i5: row.int(6), i6: row.int(7), i7: row.int(8), i8: row.int(9), i9: row.int(10))
    }
}

extension UserValue {
    /// The user `row` is on, its columns `_pk` first.
    init(raw row: RawStatement) {
        self.init(id: row.uuid(1), firstName: row.text(2), surname: row.text(3), age: row.int(4))
    }
}

/// Deterministic data: one user in ten is "Jane".
enum Seed {
    static let firstNames = ["Jane", "John", "Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi"]
    static func firstName(_ i: Int) -> String { firstNames[i % firstNames.count] }
    static func surname(_ i: Int) -> String { "Surname\(i % 1000)" }
    static func age(_ i: Int) -> Int { (i &* 7919) % 100 }
    static func uuid(_ i: Int) -> UUID {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { raw in
            var value = UInt64(i).bigEndian
            withUnsafeBytes(of: &value) { raw.baseAddress!.advanced(by: 8).copyMemory(from: $0.baseAddress!, byteCount: 8) }
            raw[0] = 0xB3; raw[6] = 0x40; raw[7] = 0x00
        }
        return UUID(uuid: bytes)
    }
}

/// B10: one amount kept twice, as whole cents and as a `Decimal` of currency units.
enum PaymentsV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Payment.self] }

    @Model final class Payment {
        var cents: Int
        var amount: Decimal
        init(cents: Int) {
            self.cents = cents
            amount = Decimal(sign: .plus, exponent: -2, significand: Decimal(cents))
        }
    }
}

typealias Payment = PaymentsV1.Payment

/// I1: one table of trips, flat, each row holding the column of its kind and NULL in the others.
enum FlatTripsV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [FlatTrip.self] }

    @Model final class FlatTrip {
        var name: String
        var days: Int
        var perDiem: Double?
        var guide: String?
        var language: String?
        init(name: String, days: Int) {
            self.name = name
            self.days = days
        }
    }
}

/// I1: the same trips as a parent with three subclasses, one of each kind.
enum TripHierarchyV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Trip.self, BusinessTrip.self, GuidedTrip.self, AudioTrip.self] }

    @Model class Trip {
        var name: String
        var days: Int
        init(name: String, days: Int) {
            self.name = name
            self.days = days
        }
    }

    @Model class BusinessTrip: Trip {
        var perDiem: Double
        init(name: String, days: Int, perDiem: Double) {
            self.perDiem = perDiem
            super.init(name: name, days: days)
        }
    }

    @Model class GuidedTrip: Trip {
        var guide: String
        init(name: String, days: Int, guide: String) {
            self.guide = guide
            super.init(name: name, days: days)
        }
    }

    @Model class AudioTrip: Trip {
        var language: String
        init(name: String, days: Int, language: String) {
            self.language = language
            super.init(name: name, days: days)
        }
    }
}
