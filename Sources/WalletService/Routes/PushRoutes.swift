import Foundation
import HTTPServer
import PassModel
import WalletStore

/// Admin routes for push refresh: force a push for one pass, and see the outbox.
struct PushRoutes {
    let store: WalletStore
    let worker: PushWorker

    func register(in table: inout RouteTable) {
        let store = self.store
        let worker = self.worker
        table.addAdmin(.post, "/api/v1/passes/:passType/:serial/push") { request in
            let key = request.passKey
            guard try await store.pass(key) != nil else { return .problem(status: .notFound, detail: "no such pass") }
            let queued = try await store.enqueuePushes(for: key)
            return .json(JSONValue.object(["pushesQueued": .number(Double(queued))]).serialized(sortedKeys: true), status: .accepted)
        }
        table.addAdmin(.get, "/api/v1/push/stats") { _ in
            let outbox = try await store.outboxStats()
            let counters = worker.counters
            var failures = JSONObject()
            for (reason, count) in counters.failures.sorted(by: { $0.key < $1.key }) { failures[reason] = .number(Double(count)) }
            var pending = JSONObject()
            for (reason, count) in outbox.failuresByReason.sorted(by: { $0.key < $1.key }) { pending[reason] = .number(Double(count)) }
            var stopped = JSONObject()
            for (type, reason) in counters.stoppedIdentities.sorted(by: { $0.key < $1.key }) { stopped[type] = .string(reason) }
            let body: JSONValue = .object([
                "queued": .number(Double(outbox.queued)),
                "inFlight": .number(Double(outbox.inFlight)),
                "oldestPendingSeconds": outbox.oldestPendingAge.map { .number(Double($0.components.seconds)) } ?? .null,
                "sent": .number(Double(counters.sent)),
                "failuresByReason": .object(failures),
                "pendingByLastError": .object(pending),
                "stoppedIdentities": .object(stopped),
            ])
            return .json(body.serialized(sortedKeys: true))
        }
    }
}
