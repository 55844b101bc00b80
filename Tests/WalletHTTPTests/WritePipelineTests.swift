import Foundation
import PassCompiler
import PassModel
import PasswrightLogging
import PasswrightTesting
import Testing
import WalletStore
@testable import WalletCore
@testable import WalletHTTP

/// Every writer of a pass against a held notifying change: the hold keeps the *edit*, so when it is
/// released at 07:00 in the holder's zone it lands on the pass as it is then, and whatever another
/// writer wrote in between stays. Each case failed when a hold stored a snapshot of the whole pass
/// and wrote it back.
@Suite("Write pipeline: writers against a held change")
struct WritePipelineTests {
    /// 22:30 in Berlin (21:30 UTC): inside the default quiet hours, which end at 06:00 UTC.
    static let night = "21:30"

    /// Holds `points` = 1500 for the fixture's pass overnight, then runs `writer`, releases the hold
    /// at 07:00 Berlin and hands `check` the stored pass.
    func holdThen(
        engine: Engine, folder: URL = Samples.templatesFolder,
        _ writer: (PassService, WalletStore) async throws -> Void,
        check: (StoredPass, PassService, WalletStore) async throws -> Void
    ) async throws {
        try await Etiquette.with(engine: engine, at: Etiquette.day(0, Self.night), folder: folder) { service, store, clock, releaser in
            let held = try await service.update(Etiquette.key, Etiquette.data(["points": .number(1500)]), origin: .api)
            #expect(held.heldUntil == Etiquette.date(Etiquette.day(1, "06:00")))
            #expect(try await Etiquette.points(store) == 1280, "held overnight")
            try await writer(service, store)
            clock.set(Etiquette.day(1, "06:00:01"))
            #expect(await releaser.releaseDue() == 1)
            #expect(try await store.holdCount() == 0)
            #expect(try await Etiquette.points(store) == 1500, "the held change landed")
            try await check(try #require(try await store.pass(Etiquette.key)), service, store)
        }
    }

    @Test("hold vs template-wide change: the template-wide value survives the release", arguments: Engine.selected)
    func holdVersusTemplateWide(engine: Engine) async throws {
        try await holdThen(engine: engine) { service, store in
            let outcome = try await service.update(
                template: "loyalty", Etiquette.data(["member": .object(["name": .string("Template-wide")])]), origin: .api)
            #expect(outcome.changed == 1 && outcome.held == 0, "a silent change goes at once")
            #expect(try await Etiquette.member(store) == "Template-wide")
        } check: { _, _, store in
            let name = try await Etiquette.member(store)
            #expect(name == "Template-wide")
        }
    }

    @Test("hold vs void: the pass stays voided after the release", arguments: Engine.selected)
    func holdVersusVoid(engine: Engine) async throws {
        try await holdThen(engine: engine) { service, store in
            let voided = try await service.update(Etiquette.key, PassEdit(voided: true), origin: .api)
            #expect(voided.pass.voided && voided.heldUntil != nil)
        } check: { pass, _, _ in
            #expect(pass.voided)
        }
    }

    @Test("hold vs personalize: the sign-up survives the release and stays the only one", arguments: Engine.selected)
    func holdVersusPersonalize(engine: Engine) async throws {
        try await withScratch { folder in
            try Self.copyLoyalty(to: folder, adding: ["personalization.json": #"{"requiredPersonalizationFields": ["PKPassPersonalizationFieldName"], "description": "Join the club"}"#])
            try await holdThen(engine: engine, folder: folder) { service, _ in
                let first = try await service.personalize(Etiquette.key, token: "sign-up-1", info: ["fullName": .string("Ada Lovelace")])
                guard case .signed = first else { Issue.record("not personalized: \(first)"); return }
            } check: { pass, service, _ in
                #expect(try PassService.isPersonalized(pass), "the release did not take the personalization back")
                let again = try await service.personalize(Etiquette.key, token: "sign-up-2", info: ["fullName": .string("Mallory")])
                #expect(again == .alreadyPersonalized)
            }
        }
    }

    @Test("hold vs roll-out: the pass keeps its new template version and gets the held value", arguments: Engine.selected)
    func holdVersusRollout(engine: Engine) async throws {
        try await holdThen(engine: engine) { service, store in
            let moved = try await Self.publishAndRollOut(service, editing: { $0.replacingOccurrences(of: #""label": "Points""#, with: #""label": "Beans""#) })
            #expect(moved == 1, "a relabel is silent: it goes at once")
            #expect(try await store.pass(Etiquette.key)?.templateVersion == 2)
        } check: { pass, _, store in
            let newest = try await store.passUpdates(for: Etiquette.key).first
            #expect(pass.templateVersion == 2)
            #expect(newest?.source == PassUpdateRecord.hold)
        }
    }

    @Test("a roll-out that changes a notifying value at 22:30 in the holder's zone waits until 07:00", arguments: Engine.selected)
    func notifyingRolloutIsHeld(engine: Engine) async throws {
        try await Etiquette.with(engine: engine, at: Etiquette.day(0, Self.night)) { service, store, clock, releaser in
            let moved = try await Self.publishAndRollOut(service, editing: { $0.replacingOccurrences(of: #""value": "{{tier}}""#, with: #""value": "{{tier}} member""#) })
            #expect(moved == 0)
            #expect(try await store.pass(Etiquette.key)?.templateVersion == 1, "the pass still renders from v1")
            #expect(try await store.hold(Etiquette.key)?.templateVersion == 2)
            #expect(try await Etiquette.pushes(store) == 0)
            clock.set(Etiquette.day(1, "06:00:01"))
            #expect(await releaser.releaseDue() == 1)
            #expect(try await store.pass(Etiquette.key)?.templateVersion == 2)
            #expect(try await Etiquette.pushes(store) == 1)
        }
    }

    @Test("a roll-out that changes only what no change message shows goes at once at 22:30", arguments: Engine.selected)
    func silentRolloutGoesAtOnce(engine: Engine) async throws {
        try await Etiquette.with(engine: engine, at: Etiquette.day(0, Self.night)) { service, store, _, _ in
            // The labels, and the tier's change message text: no field with a change message gets another value.
            let moved = try await Self.publishAndRollOut(service, editing: {
                $0.replacingOccurrences(of: #""label": "Points""#, with: #""label": "Beans""#)
                    .replacingOccurrences(of: "Your tier is now %@", with: "Tier: %@")
            })
            #expect(moved == 1)
            #expect(try await store.pass(Etiquette.key)?.templateVersion == 2)
            #expect(try await store.hold(Etiquette.key) == nil)
            #expect(try await Etiquette.pushes(store) == 1)
        }
    }

    @Test("a notifying template-wide change at 22:30 is held per holder's zone; a silent one goes at once", arguments: Engine.selected)
    func templateWideFollowsEachHoldersZone(engine: Engine) async throws {
        try await Etiquette.with(engine: engine, at: Etiquette.day(0, Self.night)) { service, store, clock, releaser in
            // A second holder in New York (74° W: UTC−5), where 21:30 UTC is 16:30.
            guard case .object(let record) = try await Etiquette.record(store) else { throw FixtureError("record") }
            let newYork = PassKey(passTypeIdentifier: Etiquette.key.passTypeIdentifier, serialNumber: "POLITE-NY")
            _ = try await service.issue(PassService.Issue(
                template: "loyalty", serialNumber: newYork.serialNumber, data: record.removing("authenticationToken"),
                overrides: ["locations": .array([.object(["latitude": .number(40.7), "longitude": .number(-74.0)])])]), origin: .api)
            _ = try await service.register(deviceLibraryIdentifier: "new-york-device", pushToken: "11ee", for: newYork)
            _ = try await Etiquette.pushes(store)

            let silent = try await service.update(template: "loyalty", Etiquette.data(["member": .object(["name": .string("Everyone")])]), origin: .api)
            #expect(silent.changed == 2 && silent.held == 0)
            #expect(try await Etiquette.pushes(store) == 2, "a silent change reaches every holder at once")

            let notifying = try await service.update(template: "loyalty", Etiquette.data(["tier": .string("Platinum")]), origin: .api)
            #expect(notifying.changed == 2 && notifying.held == 1, "held for the Berlin holder only")
            #expect(try await Etiquette.pushes(store) == 1, "the New York holder is notified now")
            #expect(try await store.hold(Etiquette.key)?.releaseAt == Etiquette.date(Etiquette.day(1, "06:00")))
            #expect(try await store.hold(newYork) == nil)

            clock.set(Etiquette.day(1, "05:59"))
            #expect(await releaser.releaseDue() == 0)
            clock.set(Etiquette.day(1, "06:00:01"))
            #expect(await releaser.releaseDue() == 1)
            #expect(try await Etiquette.pushes(store) == 1)
            guard case .object(let released) = try await Etiquette.record(store) else { throw FixtureError("record") }
            #expect(released["tier"] == .string("Platinum") && released["member"]?.objectValue?["name"] == .string("Everyone"))
        }
    }

    @Test("a later edit of the same key replaces the held one instead of being undone by it", arguments: Engine.selected)
    func aLaterWriteOfTheHeldKeyWins(engine: Engine) async throws {
        try await Etiquette.with(engine: engine, at: Etiquette.day(0, Self.night)) { service, store, clock, releaser in
            _ = try await service.update(Etiquette.key, Etiquette.data(["points": .number(1500), "member": .object(["name": .string("Held")])]), origin: .api)
            // Going back to the visible points is silent and goes now: it takes the held edit's points out.
            let back = try await service.update(Etiquette.key, Etiquette.data(["points": .number(1280), "member": .object(["name": .string("Now")])]), origin: .api)
            #expect(back.heldUntil == nil, "nothing notifying is left to hold")
            #expect(try await store.holdCount() == 0)
            #expect(try await Etiquette.member(store) == "Now")
            clock.set(Etiquette.day(1, "06:00:01"))
            #expect(await releaser.releaseDue() == 0)
            #expect(try await Etiquette.points(store) == 1280)
        }
    }

    @Test("hold vs console save: a console edit made while a notification is held survives its release", arguments: Engine.selected)
    func holdVersusConsoleSave(engine: Engine) async throws {
        // Spacing of 45 seconds, no quiet hours: the second notifying change is held for 45 seconds,
        // long enough for the console's sign-in and save on a busy machine under a sanitizer (15 were
        // not, once, under AddressSanitizer with every suite running beside it).
        let spaced = NotificationPolicy(enabled: true, quietHours: nil, spacing: .seconds(45))
        try await withService(engine: engine, notifications: spaced) { server in
            let path = "/api/v1/passes/pass.dev.passwright.loyalty/CONSOLE-HOLD"
            _ = try await server.issue(serial: "CONSOLE-HOLD")
            #expect(try await server.api("PATCH", path, json: ["data": ["points": 1]]).json()["heldUntil"] == .null)
            let held = try await server.api("PATCH", path, json: ["data": ["points": 2]])
            #expect(try held.json()["heldUntil"].string != nil, "the second notification is held by the spacing")

            var browser = ConsoleBrowser(server)
            _ = try await browser.signIn()
            let page = try await browser.get("/console/passes/pass.dev.passwright.loyalty/CONSOLE-HOLD")
            let csrf = try #require(ConsoleBrowser.csrf(in: page))
            // The form posts every field as the page showed it: the points as the holder sees them now.
            let saved = try await browser.post(
                "/console/passes/pass.dev.passwright.loyalty/CONSOLE-HOLD",
                form: [("csrf", csrf), ("data.points", "1"), ("data.member.name", "Console Edit")])
            #expect(saved.status == 303)
            let between = try await server.api("GET", path).json()
            #expect(between["data"]["member"]["name"].string == "Console Edit", "the console's silent edit goes at once")
            #expect(between["data"]["points"].number == 1, "while the notification is still held")
            let stored = try await eventually("the held change is released", timeout: .seconds(120)) { () -> JSON? in
                let pass = try await server.api("GET", path).json()
                return pass["data"]["points"].number == 2 ? pass : nil
            }
            #expect(stored["data"]["member"]["name"].string == "Console Edit", "the release kept the console's edit")
        }
    }

    @Test("six notifying edits racing overnight all fold into the hold, none lost", arguments: Engine.selected)
    func racingNotifyingEditsAllFoldIn(engine: Engine) async throws {
        try await Etiquette.with(engine: engine, at: Etiquette.day(0, Self.night)) { service, store, clock, releaser in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 1...6 {
                    group.addTask {
                        let edit = Etiquette.data(["tier": .string("Tier \(index)"), "member": .object(["note\(index)": .number(Double(index))])])
                        let outcome = try await service.update(Etiquette.key, edit, origin: .api)
                        #expect(outcome.heldUntil == Etiquette.date(Etiquette.day(1, "06:00")))
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await Etiquette.pushes(store) == 0)
            clock.set(Etiquette.day(1, "06:00:01"))
            #expect(await releaser.releaseDue() == 1)
            guard case .object(let record) = try await Etiquette.record(store), case .object(let member)? = record["member"] else {
                throw FixtureError("record")
            }
            for index in 1...6 { #expect(member["note\(index)"] == .number(Double(index)), "edit \(index) survived") }
            #expect(try await Etiquette.pushes(store) == 1, "one push for all six")
        }
    }

    @Test("a pass the new version cannot render still moves, and the roll-out names it", arguments: Engine.selected)
    func unrenderablePassesMoveAndAreNamed(engine: Engine) async throws {
        try await Etiquette.with(engine: engine, at: Etiquette.day(0, "12:00")) { service, store, _, _ in
            // Version 2 shows a record member the pass does not have.
            _ = try await Self.publishAndRollOut(service, editing: { $0.replacingOccurrences(of: "{{points | number}}", with: "{{bonus | number}}") }, rollOut: false)
            let moved = try await service.writer.rollOut(template: "loyalty", to: 2)
            #expect(moved.advanced == 1)
            #expect(moved.unrenderable == [Etiquette.key])
            #expect(try await store.pass(Etiquette.key)?.templateVersion == 2)
        }
    }

    // MARK: Helpers

    /// Publishes the loyalty sample with its `pass.json` edited as version 2 and rolls it out; answers
    /// how many passes moved now.
    static func publishAndRollOut(_ service: PassService, editing edit: (String) -> String, rollOut: Bool = true) async throws -> Int {
        let folder = try TemplateSourceFile.read(folder: Samples.templatesFolder.appendingPathComponent("loyalty"))
        let files = folder.kept.map { file in
            file.path == "pass.json" ? TemplateSourceFile(path: file.path, bytes: Data(edit(String(decoding: file.bytes, as: UTF8.self)).utf8)) : file
        }
        let rollouts = RolloutWorker(passes: service, logger: Logger(label: "test", level: .error))
        let templates = TemplateService(store: service.store, library: service.templates, rollouts: rollouts)
        guard case .published = try await templates.publish(name: "loyalty", files: files, skipped: [], origin: .api) else {
            throw FixtureError("version 2 was refused")
        }
        return rollOut ? await rollouts.rollOutAll() : 0
    }

    /// The loyalty sample template copied into `folder/loyalty`, with `extra` files added.
    static func copyLoyalty(to folder: URL, adding extra: [String: String]) throws {
        let target = folder.appendingPathComponent("loyalty")
        try FileManager.default.copyItem(at: Samples.templatesFolder.appendingPathComponent("loyalty"), to: target)
        for (name, text) in extra { try Data(text.utf8).write(to: target.appendingPathComponent(name)) }
    }
}

extension JSONObject {
    /// The object without `key`.
    func removing(_ key: String) -> JSONObject {
        var copy = self
        copy[key] = nil
        return copy
    }
}

extension JSONValue {
    /// The members, when this is an object.
    var objectValue: JSONObject? {
        if case .object(let object) = self { object } else { nil }
    }
}
