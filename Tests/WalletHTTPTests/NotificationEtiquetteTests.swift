import Foundation
import Locking
import PassCompiler
import PassModel
import PasswrightTesting
import Testing
import WalletStore
@testable import WalletCore
@testable import WalletHTTP

/// Changes that show the holder a notification wait for a polite moment; silent ones never wait.
/// Driven through the service with a clock the test moves, and the pushes counted as a push worker
/// would send them (claim, then complete).
@Suite("Notification etiquette")
struct NotificationEtiquetteTests {
    @Test("a notifying change in the holder's quiet hours waits until they end; a silent change at that moment goes at once", arguments: Engine.selected)
    func quietHours(engine: Engine) async throws {
        // 22:30 in Berlin (21:30 UTC): inside the default 22:00–07:00.
        try await Etiquette.with(engine: engine, at: Etiquette.day(0, "21:30")) { service, store, clock, releaser in
            let notifying = try await service.update(Etiquette.key, Etiquette.data(["points": .number(1500)]), origin: .api)
            #expect(notifying.changed)
            #expect(notifying.heldUntil == Etiquette.date(Etiquette.day(1, "06:00")), "07:00 in Berlin")
            #expect(try await Etiquette.pushes(store) == 0, "nothing is pushed overnight")
            #expect(try await Etiquette.points(store) == 1280, "the pass itself is unchanged until then")

            let silent = try await service.update(Etiquette.key, Etiquette.data(["member": .object(["name": .string("Ada O.")])]), origin: .api)
            #expect(silent.heldUntil == Etiquette.date(Etiquette.day(1, "06:00")), "the held change still waits")
            #expect(try await Etiquette.pushes(store) == 1, "a silent refresh is not held back")
            #expect(try await Etiquette.member(store) == "Ada O.")
            #expect(try await Etiquette.points(store) == 1280)

            clock.set(Etiquette.day(1, "05:59"))
            #expect(await releaser.releaseDue() == 0, "not before the quiet hours end")
            clock.set(Etiquette.day(1, "06:00:01"))
            #expect(await releaser.releaseDue() == 1)
            #expect(try await Etiquette.points(store) == 1500)
            #expect(try await Etiquette.member(store) == "Ada O.", "the silent edit is kept")
            #expect(try await Etiquette.pushes(store) == 1, "one push brings the held change")
            #expect(try await store.holdCount() == 0)
        }
    }

    @Test("a stored pass that no longer renders is mended by a change, which waits as one that shows a message", arguments: Engine.selected)
    func anUnrenderablePassIsMendedPolitely(engine: Engine) async throws {
        try await Etiquette.with(engine: engine, at: Etiquette.day(0, "21:30")) { service, store, clock, releaser in
            // What a pass stored before a rule of a later Passwright could be: a record its template no
            // longer renders (written past the pipeline, which would refuse it).
            let stored = try #require(try await store.pass(Etiquette.key))
            guard case .written = try await store.writePass(stored.key, expectedTag: stored.updateTag, change: PassChange(data: #"{"points":5}"#)) else {
                throw FixtureError("the unrenderable record was not stored")
            }
            _ = try await Etiquette.pushes(store)
            let mend = Etiquette.data(["member": .object(["id": .string("BL-7731-0001"), "name": .string("Ada Okafor")]), "tier": .string("Gold")])
            let mended = try await service.update(Etiquette.key, mend, origin: .api)
            #expect(mended.changed)
            #expect(mended.heldUntil == Etiquette.date(Etiquette.day(1, "06:00")), "it cannot be compared, so it waits for the quiet hours' end")
            #expect(try await Etiquette.pushes(store) == 0)
            clock.set(Etiquette.day(1, "06:00:01"))
            #expect(await releaser.releaseDue() == 1)
            #expect(try await Etiquette.member(store) == "Ada Okafor")
            #expect(try await Etiquette.points(store) == 5)
            #expect(try await Etiquette.pushes(store) == 1)
        }
    }

    @Test("two notifying changes a minute apart, right after a notification, fold into one push five minutes after it", arguments: Engine.selected)
    func spacing(engine: Engine) async throws {
        try await Etiquette.with(engine: engine, at: Etiquette.day(0, "12:00")) { service, store, clock, releaser in
            let first = try await service.update(Etiquette.key, Etiquette.data(["points": .number(1)]), origin: .api)
            #expect(first.heldUntil == nil, "the first notification in a while goes at once")
            #expect(try await Etiquette.pushes(store) == 1)

            clock.set(Etiquette.day(0, "12:01"))
            let second = try await service.update(Etiquette.key, Etiquette.data(["points": .number(2)]), origin: .api)
            clock.set(Etiquette.day(0, "12:02"))
            let third = try await service.update(Etiquette.key, Etiquette.data(["points": .number(3)]), origin: .api)
            #expect(second.heldUntil == Etiquette.date(Etiquette.day(0, "12:05")))
            #expect(third.heldUntil == second.heldUntil, "a later edit folds into the hold, it does not push it back")
            #expect(try await Etiquette.pushes(store) == 0)
            #expect(try await store.holdCount() == 1)

            clock.set(Etiquette.day(0, "12:05"))
            #expect(await releaser.releaseDue() == 1)
            #expect(try await Etiquette.points(store) == 3, "the latest edit")
            #expect(try await Etiquette.pushes(store) == 1, "one push for both")
        }
    }

    @Test("a template's passwright.json sets its own quiet hours and zone")
    func templateSettings() throws {
        let settings = try TemplateSettings.parse(Data(#"{"quietHours": "21:30-08:00", "timeZone": "America/New_York"}"#.utf8))
        #expect(settings.quietHours == .hours(QuietHours(start: 21 * 60 + 30, end: 8 * 60)))
        #expect(settings.timeZone.identifier == "America/New_York")
        #expect(try TemplateSettings.parse(Data(#"{"quietHours": "off"}"#.utf8)).quietHours == .off)
        #expect(throws: PassCompilerError.self) { try TemplateSettings.parse(Data(#"{"quietHours": "late", "zone": 1}"#.utf8)) }
    }

    @Test("quiet hours across midnight and within a day end where they should")
    func quietHoursEnd() {
        let night = QuietHours(start: 22 * 60, end: 7 * 60)
        #expect(night.end(around: Etiquette.date("2026-12-01T23:10:00Z"), secondsFromGMT: 0) == Etiquette.date("2026-12-02T07:00:00Z"))
        #expect(night.end(around: Etiquette.date("2026-12-02T03:00:00Z"), secondsFromGMT: 0) == Etiquette.date("2026-12-02T07:00:00Z"))
        #expect(night.end(around: Etiquette.date("2026-12-02T07:00:00Z"), secondsFromGMT: 0) == nil)
        #expect(night.end(around: Etiquette.date("2026-12-02T12:00:00Z"), secondsFromGMT: 0) == nil)
        // 23:00 UTC is 08:00 in Tokyo: outside; 13:30 UTC is 22:30 there: inside, until 22:00 UTC.
        #expect(night.end(around: Etiquette.date("2026-12-01T23:00:00Z"), secondsFromGMT: 9 * 3600) == nil)
        #expect(night.end(around: Etiquette.date("2026-12-01T13:30:00Z"), secondsFromGMT: 9 * 3600) == Etiquette.date("2026-12-01T22:00:00Z"))
        let lunch = QuietHours(start: 12 * 60, end: 13 * 60)
        #expect(lunch.end(around: Etiquette.date("2026-12-01T12:30:00Z"), secondsFromGMT: 0) == Etiquette.date("2026-12-01T13:00:00Z"))
        #expect(lunch.end(around: Etiquette.date("2026-12-01T13:30:00Z"), secondsFromGMT: 0) == nil)
    }
}
