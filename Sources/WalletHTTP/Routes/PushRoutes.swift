import Foundation
import HTTPServer
import PassModel
import WalletCore

/// Admin routes for push refresh: force a push for one pass, and see the outbox.
struct PushRoutes {
    let service: PassService
    let worker: PushWorker

    /// The push routes of the admin API, under `/api/v1`.
    func group(auth: APIAuth) -> RouteGroup {
        let service = self.service
        let worker = self.worker
        var group = RouteGroup("/api/v1")
        group.add(Route(
            .post, "/passes/:passType/:serial/push", operationID: "forcePush",
            summary: "Queue a push to every device registered for the pass", auth: auth.requiring(.pushSend),
            responses: [.json(.accepted, "Queued", schema: PushQueued.schemaName), .problem(.notFound, "No such pass")]
        ) { _, context in
            let key = try context.parameters.passKey()
            guard let queued = try await service.queuePushes(for: key, origin: try context.identity(as: APICaller.self).origin) else { return .problem(status: .notFound, detail: "no such pass") }
            return try .json(PushQueued(pushesQueued: queued), status: .accepted)
        })
        group.add(Route(
            .get, "/push/stats", operationID: "pushStats",
            summary: "The push outbox: queued, in flight, oldest pending, sent, failures by reason, stopped identities", auth: auth.requiring(.pushSend),
            responses: [.json(.ok, "Push statistics", schema: PushStats.schemaName)]
        ) { _, _ in
            // The counters first: the worker counts a push as sent only after its completion
            // committed, so an outbox read after them never still holds a push they count.
            let counters = worker.counters
            let outbox = try await service.outboxStats()
            let rate = worker.rate
            // At the pace this instance sent at lately, no faster than it allows now (that pace alone
            // before it has sent anything), with one instance sending; several share the outbox and go faster.
            let pace = worker.recentRate.map { min($0, worker.pace ?? .infinity) } ?? worker.pace
            let waiting = outbox.queued + outbox.inFlight
            return try .json(PushStats(
                queued: outbox.queued, inFlight: outbox.inFlight, oldestPendingSeconds: outbox.oldestPendingAge?.components.seconds,
                sent: counters.sent, failuresByReason: counters.failures, pendingByLastError: outbox.failuresByReason,
                stoppedIdentities: counters.stoppedIdentities, ratePerSecond: rate,
                etaSeconds: pace.flatMap { $0 > 0 ? Int((Double(waiting) / $0).rounded(.up)) : nil }))
        })
        return group
    }
}
