import Foundation
import SwiftData
import TestSupport

/// One random change to the test models: inserts, edits of every attribute type, links moved,
/// memberships added and removed, deletions (with the cascade from journeys to legs), and
/// countries made with codes other devices use too, and linked to.
public enum RandomEdit {
    public static func apply(in context: ModelContext, using random: inout SplitMix) throws {
        let journeys = try context.fetch(FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.title)]))
        let legs = try context.fetch(FetchDescriptor<Leg>(sortBy: [SortDescriptor(\.place)]))
        let labels = try context.fetch(FetchDescriptor<Label>(sortBy: [SortDescriptor(\.name)]))
        let word = ["amber", "birch", "cedar", "dune", "ember", "fjord"].randomElement(using: &random)! + String(Int.random(in: 0..<100, using: &random))
        switch Int.random(in: 0..<15, using: &random) {
        case 12:
            // A handful of codes, so that devices make the same country now and then.
            let code = ["PT", "JP", "NO", "PE"].randomElement(using: &random)!
            let country = Country(code: code, name: word)
            context.insert(country)
            // Linked at once now and then: two devices offline each link to their own model of
            // one country, which the server merges into one.
            if Bool.random(using: &random) { journeys.randomElement(using: &random)?.country = country }
        case 13:
            let countries = try context.fetch(FetchDescriptor<Country>(sortBy: [SortDescriptor(\.code)]))
            if let country = countries.randomElement(using: &random) {
                if Int.random(in: 0..<4, using: &random) == 0 { context.delete(country) } else { country.population = Int.random(in: 0..<1_000_000, using: &random) }
            }
        case 14:
            let countries = try context.fetch(FetchDescriptor<Country>(sortBy: [SortDescriptor(\.code)]))
            if let journey = journeys.randomElement(using: &random) {
                journey.country = Bool.random(using: &random) ? countries.randomElement(using: &random) : nil
            }
        case 0, 1:
            context.insert(Journey(title: word, departure: Date(timeIntervalSinceReferenceDate: Double.random(in: 0..<1e9, using: &random))))
        case 2:
            let leg = Leg(place: word, position: Int.random(in: 0..<10, using: &random))
            context.insert(leg)
            leg.journey = journeys.randomElement(using: &random)
        case 3:
            context.insert(Label(name: word))
        case 4:
            journeys.randomElement(using: &random)?.title = word
        case 5:
            journeys.randomElement(using: &random)?.budget = Bool.random(using: &random) ? nil : Double(Int.random(in: 0..<5000, using: &random)) / 7
        case 6:
            if let journey = journeys.randomElement(using: &random) {
                journey.isBooked.toggle()
                journey.notes = Data(word.utf8)
            }
        case 7:
            legs.randomElement(using: &random)?.journey = journeys.randomElement(using: &random)
        case 8:
            if let journey = journeys.randomElement(using: &random), let label = labels.randomElement(using: &random),
               !journey.labels.contains(where: { $0 === label }) {
                journey.labels.append(label)
            }
        case 9:
            if let journey = journeys.randomElement(using: &random), !journey.labels.isEmpty {
                journey.labels.remove(at: Int.random(in: 0..<journey.labels.count, using: &random))
            }
        case 10:
            if let journey = journeys.randomElement(using: &random), Int.random(in: 0..<3, using: &random) == 0 { context.delete(journey) }
        default:
            if Bool.random(using: &random), let leg = legs.randomElement(using: &random) {
                context.delete(leg)
            } else if let label = labels.randomElement(using: &random), Int.random(in: 0..<3, using: &random) == 0 {
                context.delete(label)
            }
        }
    }

    /// Links a new mark of `device` to one of the device's own pins (made the first time) and,
    /// now and then, to a pin of another device that this one has; returns the pins' names.
    public static func pin(_ mark: Mark, of device: String, in context: ModelContext, using random: inout SplitMix) throws -> [String] {
        let pins = try context.fetch(FetchDescriptor<Pin>(sortBy: [SortDescriptor(\.name)]))
        let ownName = "\(device)-pin-\(Int.random(in: 0..<3, using: &random))"
        var chosen = [pins.first { $0.name == ownName } ?? {
            let made = Pin(name: ownName)
            context.insert(made)
            return made
        }()]
        if Bool.random(using: &random), let other = pins.filter({ !$0.name.hasPrefix(device + "-") }).randomElement(using: &random) {
            chosen.append(other)
        }
        mark.pins = chosen
        return chosen.map(\.name).sorted()
    }
}
