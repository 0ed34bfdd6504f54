import Foundation
import OpenSwiftData
import Testing

/// A clean-up as large apps write it: a transaction whose enumeration deletes what is invalid.
@Suite struct EnumerateDeletionTests {
    @Test(arguments: Backend.available) func deletesInsideEnumerateInsideATransactionAreSaved(backend: Backend) throws {
        let store = try backend.store([Garage.self, Motor.self, Sedan.self, Driver.self])
        let writer = ModelContext(try store.container())
        let garage = Garage(name: "G")
        for index in 0..<95 {
            let motor = Motor(vin: String(format: "V%03d", index), model: index % 3 == 0 ? "invalid" : "ok")
            motor.garage = garage
            writer.insert(motor)
        }
        try writer.save()

        let context = ModelContext(try store.container())
        var seen = 0
        try context.transaction {
            try context.enumerate(FetchDescriptor<Motor>(sortBy: [SortDescriptor(\.vin)]), batchSize: 10) { motor in
                seen += 1
                if motor.model == "invalid" { context.delete(motor) }
            }
        }
        #expect(seen == 95)
        #expect(!context.hasChanges)
        let reader = ModelContext(try store.container())
        let left = try reader.fetch(FetchDescriptor<Motor>(sortBy: [SortDescriptor(\.vin)]))
        #expect(left.count == 63)
        #expect(left.allSatisfy { $0.model == "ok" })
        // The garage's relationship lost the deleted cars (nullify).
        #expect(try reader.fetch(FetchDescriptor<Garage>()).first?.motors.count == 63)
    }
}
