import Foundation
import HTTPServer
import PassModel
import WalletCore

/// Admin routes for push refresh: force a push for one pass, and see the outbox.
struct PushRoutes {
    let service: PassService
    let worker: PushWorker

    /// The push routes of the admin API, under `/api/v1`.
    func group(adminToken: String) -> RouteGroup {
        let service = self.service
        let worker = self.worker
        var group = RouteGroup("/api/v1", auth: ServiceAuth.admin(token: adminToken))
        group.add(Route(
            .post, "/passes/:passType/:serial/push", operationID: "forcePush",
            summary: "Queue a push to every device registered for the pass",
            responses: [.json(.accepted, "Queued", schema: "PushQueued"), .problem(.notFound, "No such pass")]
        ) { _, context in
            let key = try context.parameters.passKey()
            guard let queued = try await service.queuePushes(for: key) else { return .problem(status: .notFound, detail: "no such pass") }
            return .json(JSONValue.object(["pushesQueued": .number(Double(queued))]).serialized(sortedKeys: true), status: .accepted)
        })
        group.add(Route(
            .get, "/push/stats", operationID: "pushStats",
            summary: "The push outbox: queued, in flight, oldest pending, sent, failures by reason, stopped identities",
            responses: [.json(.ok, "Push statistics", schema: "PushStats")]
        ) { _, _ in
            let outbox = try await service.outboxStats()
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
                "ratePerSecond": worker.rate.map { .number(Double($0)) } ?? .null,
                // At the instance's pace, with one instance sending; several share the outbox and go faster.
                "etaSeconds": worker.rate.map { .number((Double(outbox.queued + outbox.inFlight) / Double($0)).rounded(.up)) } ?? .null,
            ])
            return .json(body.serialized(sortedKeys: true))
        })
        return group
    }
}
