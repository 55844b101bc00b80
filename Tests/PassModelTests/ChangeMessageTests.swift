import Foundation
import PassModel
import Testing

/// When Wallet shows a notification for an update: a field with a `changeMessage` whose value
/// changed, the fields matched by key wherever they sit (the boarding pass fixture's `gate` header
/// field has one; its `seat` does not).
@Suite struct ChangeMessageTests {
    static func boardingPass() throws -> Pass {
        try Pass.decode(Data(Fixtures.boardingPass.utf8)).0
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let notifies: Bool
        let change: @Sendable (inout PassFields) -> Void
    }

    static let cases: [Case] = [
        Case(testDescription: "nothing changed", notifies: false) { _ in },
        Case(testDescription: "the gate, which has a change message, changed", notifies: true) { $0.headerFields[0].value = .string("C3") },
        Case(testDescription: "the seat, which has none, changed", notifies: false) { $0.auxiliaryFields[1].value = .string("2A") },
        Case(testDescription: "the gate moved to the back with its value", notifies: false) {
            $0.backFields.append($0.headerFields.removeFirst())
        },
        Case(testDescription: "the gate moved to the back with a new value", notifies: true) {
            var gate = $0.headerFields.removeFirst()
            gate.value = .string("C3")
            $0.backFields.append(gate)
        },
        Case(testDescription: "the gate changed and lost its change message", notifies: false) {
            $0.headerFields[0].value = .string("C3")
            $0.headerFields[0].changeMessage = nil
        },
        Case(testDescription: "a new field with a change message", notifies: true) {
            var status = Field(key: "status", value: .string("Boarding"))
            status.changeMessage = "Now %@"
            $0.secondaryFields.append(status)
        },
    ]

    @Test(arguments: cases)
    func notifiesOfChange(_ item: Case) throws {
        let old = try Self.boardingPass()
        var new = old
        item.change(&new.boardingPass!)
        #expect(new.notifiesOfChange(from: old) == item.notifies)
    }

    /// A change message on the old pass alone does not notify: Wallet reads the new pass's.
    @Test func onlyTheNewPassesChangeMessagesCount() throws {
        var old = try Self.boardingPass()
        var new = old
        new.boardingPass!.headerFields[0].changeMessage = nil
        new.boardingPass!.headerFields[0].value = .string("C3")
        #expect(!new.notifiesOfChange(from: old))
        old.boardingPass!.headerFields[0].changeMessage = nil
        new.boardingPass!.headerFields[0].changeMessage = "Gate %@"
        #expect(new.notifiesOfChange(from: old))
    }
}
