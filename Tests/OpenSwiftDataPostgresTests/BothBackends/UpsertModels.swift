import Foundation
import OpenSwiftData

/// A garage cascading to its cars, each found again by its unique VIN: an app updating a car
/// by inserting it again (an upsert) must not cut the car out of its garage.
@Model final class Garage {
    @Attribute(.unique) var name: String
    var city: String
    @Relationship(deleteRule: .cascade, inverse: \Motor.garage) var motors: [Motor] = []
    init(name: String, city: String = "") {
        self.name = name
        self.city = city
    }
}

/// The root of a hierarchy (`Sedan` its subclass), unique by VIN.
@Model class Motor {
    @Attribute(.unique) var vin: String
    var model: String
    var mileage: Int = 0
    var note: String?
    var garage: Garage?
    @Relationship(inverse: \Driver.motors) var drivers: [Driver] = []
    init(vin: String, model: String) {
        self.vin = vin
        self.model = model
    }
}

@Model class Sedan: Motor {
    var doors: Int
    init(vin: String, model: String, doors: Int) {
        self.doors = doors
        super.init(vin: vin, model: model)
    }
}

/// The other side of a many-to-many relationship with ``Motor``, unique by name.
@Model final class Driver {
    @Attribute(.unique) var name: String
    var motors: [Motor] = []
    init(name: String) { self.name = name }
}
