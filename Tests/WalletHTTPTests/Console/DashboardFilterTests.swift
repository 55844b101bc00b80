import Testing
import WalletCore
@testable import WalletHTTP

/// The dashboard's filter form read from a query, and the UTC days it is made of.
@Suite struct DashboardFilterTests {
    static let today = CivilDay("2026-12-04")!

    static func filter(_ query: [String: String]) throws -> DashboardFilter {
        try DashboardFilter(query: { query[$0] }, today: today)
    }

    @Test func withoutAQueryTheLast30DaysByDay() throws {
        let filter = try Self.filter([:])
        #expect(filter == DashboardFilter(template: nil, from: CivilDay("2026-11-05")!, to: Self.today, interval: .day))
    }

    @Test func theQueryIsRead() throws {
        let filter = try Self.filter(["template": "loyalty", "from": "2026-10-01", "to": " 2026-11-30 ", "interval": "week"])
        #expect(filter == DashboardFilter(template: "loyalty", from: CivilDay("2026-10-01")!, to: CivilDay("2026-11-30")!, interval: .week))
        #expect(try Self.filter(["template": ""]).template == nil, "the form's All templates is an empty value")
        #expect(try Self.filter(["from": "2026-01-01"]).interval == .week, "a long range defaults to weeks")
        #expect(try Self.filter(["from": "2026-01-01", "interval": "day"]).interval == .day)
    }

    @Test(arguments: [["from": "2026-02-30"], ["to": "2026-12-4"], ["from": "yesterday"], ["from": "2026-12-05"], ["interval": "month"]])
    func aWrongFilterIsRefusedWithAMessage(query: [String: String]) {
        #expect(throws: ServiceError.self) { try Self.filter(query) }
    }

    @Test func daysRoundTripAndOnlyRealDaysParse() {
        for text in ["1970-01-01", "2024-02-29", "2026-12-31", "2000-02-29", "1999-12-31"] {
            #expect(CivilDay(text)?.description == text)
        }
        for text in ["2026-02-29", "1900-02-29", "2026-13-01", "2026-00-10", "2026-1-01", "２０２６-01-01", "2026-01-01T00:00", ""] {
            #expect(CivilDay(text) == nil, "\(text)")
        }
        #expect(CivilDay("1970-01-02")?.number == 1)
        // 30 November 2026 is a Monday; 1 January 1970 was a Thursday.
        #expect((CivilDay("2026-11-30")!.number + 3) % 7 == 0)
        #expect(CivilDay("2026-12-31")!.adding(days: 1).description == "2027-01-01")
        #expect(CivilDay("2026-12-01")?.shortLabel == "1 Dec")
    }
}
