import Foundation
import PassModel
import WalletStore

/// The pass side of retention: history and device logs pruned by age, expired passes voided (by
/// `expiry`, through the write pipeline, so their devices are pushed), voided passes erased when their
/// time is up (by `retention`, through the same erasure as the API's).
extension PassService {
    /// What one round of ``applyRetention(_:now:batch:)`` removed.
    public struct RetentionRound: Sendable, Equatable {
        public var historyRows = 0
        public var deviceLogs = 0
        public var voidedPasses = 0
        public var erasedPasses = 0
        public var erasedRegistrations = 0

        public var total: Int { historyRows + deviceLogs + voidedPasses + erasedPasses + erasedRegistrations }
    }

    /// Applies `settings` as of `now`, in batches of `batch`.
    public func applyRetention(_ settings: RetentionSettings, now: Date = Date(), batch: Int = 1_000) async throws -> RetentionRound {
        var round = RetentionRound()
        if let history = settings.history {
            let cutoff = now.addingTimeInterval(-Double(history.components.seconds))
            round.historyRows = try await RetentionWorker.pruneInBatches(of: batch) { try await store.pruneHistory(before: cutoff, limit: $0) }
        }
        if let logs = settings.deviceLogs {
            let cutoff = now.addingTimeInterval(-Double(logs.components.seconds))
            round.deviceLogs = try await RetentionWorker.pruneInBatches(of: batch) { try await store.pruneDeviceLogs(before: cutoff, limit: $0) }
        }
        if settings.voidExpired {
            var failed: Set<PassKey> = []
            while true {
                let due = try await store.expiredPasses(at: now, limit: 200).filter { !failed.contains($0) }
                guard !due.isEmpty else { break }
                for key in due {
                    do {
                        if try await writer.write(key, PassEdit(voided: true), origin: .system("expiry")).changed { round.voidedPasses += 1 }
                    } catch {
                        // Not renderable now, or erased meanwhile: the next round tries again.
                        failed.insert(key)
                    }
                }
                await Task.yield()
            }
        }
        if let voided = settings.voidedPasses {
            let cutoff = now.addingTimeInterval(-Double(voided.components.seconds))
            while true {
                let due = try await store.voidedPasses(before: cutoff, limit: 200)
                for key in due where try await erase(key, origin: .system("retention"))?.alreadyErased == false { round.erasedPasses += 1 }
                if due.count < 200 { break }
                await Task.yield()
            }
        }
        round.erasedRegistrations = try await dropErasedRegistrations(now: now, batch: batch)
        return round
    }
}
