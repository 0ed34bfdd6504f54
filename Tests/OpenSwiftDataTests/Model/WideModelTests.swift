import Foundation
import Testing
@testable import OpenSwiftData

/// A model wider than 64 properties: changes past the 64th are tracked and saved too.
@Model
final class WideRecord {
    var p0: Int = 0
    var p1: Int = 0
    var p2: Int = 0
    var p3: Int = 0
    var p4: Int = 0
    var p5: Int = 0
    var p6: Int = 0
    var p7: Int = 0
    var p8: Int = 0
    var p9: Int = 0
    var p10: Int = 0
    var p11: Int = 0
    var p12: Int = 0
    var p13: Int = 0
    var p14: Int = 0
    var p15: Int = 0
    var p16: Int = 0
    var p17: Int = 0
    var p18: Int = 0
    var p19: Int = 0
    var p20: Int = 0
    var p21: Int = 0
    var p22: Int = 0
    var p23: Int = 0
    var p24: Int = 0
    var p25: Int = 0
    var p26: Int = 0
    var p27: Int = 0
    var p28: Int = 0
    var p29: Int = 0
    var p30: Int = 0
    var p31: Int = 0
    var p32: Int = 0
    var p33: Int = 0
    var p34: Int = 0
    var p35: Int = 0
    var p36: Int = 0
    var p37: Int = 0
    var p38: Int = 0
    var p39: Int = 0
    var p40: Int = 0
    var p41: Int = 0
    var p42: Int = 0
    var p43: Int = 0
    var p44: Int = 0
    var p45: Int = 0
    var p46: Int = 0
    var p47: Int = 0
    var p48: Int = 0
    var p49: Int = 0
    var p50: Int = 0
    var p51: Int = 0
    var p52: Int = 0
    var p53: Int = 0
    var p54: Int = 0
    var p55: Int = 0
    var p56: Int = 0
    var p57: Int = 0
    var p58: Int = 0
    var p59: Int = 0
    var p60: Int = 0
    var p61: Int = 0
    var p62: Int = 0
    var p63: Int = 0
    var p64: Int = 0
    var p65: Int = 0
    init() {}
}

@Suite struct WideModelTests {
    @Test func changesToEveryPropertyOfAWideModelAreSaved() throws {
        let url = temporaryStoreURL()
        try writeStore(url, for: WideRecord.self) { context in
            context.insert(WideRecord())
        }
        do {
            let context = ModelContext(try ModelContainer(for: WideRecord.self, configurations: ModelConfiguration(url: url)))
            let record = try #require(try context.fetch(FetchDescriptor<WideRecord>()).first)
            record.p0 = 1
            record.p63 = 63
            record.p65 = 65
            #expect(context.hasChanges)
            try context.save()
        }
        let context = ModelContext(try ModelContainer(for: WideRecord.self, configurations: ModelConfiguration(url: url)))
        let record = try #require(try context.fetch(FetchDescriptor<WideRecord>()).first)
        let values: [Int] = [record.p0, record.p1, record.p63, record.p64, record.p65]
        #expect(values == [1, 0, 63, 0, 65])
    }
}
