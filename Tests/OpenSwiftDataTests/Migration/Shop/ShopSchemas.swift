import Foundation
import OpenSwiftData

// Two shipped versions of a shop: version 2 adds an order's total. An older build of the app
// knows only version 1.

enum ShopV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Order.self] }

    @Model final class Order {
        var customer: String
        init(customer: String) { self.customer = customer }
    }
}

enum ShopV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Order.self] }

    @Model final class Order {
        var customer: String
        var total: Double = 0
        init(customer: String, total: Double) {
            self.customer = customer
            self.total = total
        }
    }
}

/// The plan of the build that knows both versions.
enum ShopPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ShopV1.self, ShopV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: ShopV1.self, toVersion: ShopV2.self)] }
}

/// The plan of the older build, which knows version 1 only.
enum ShopV1OnlyPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ShopV1.self] }
    static var stages: [MigrationStage] { [] }
}
