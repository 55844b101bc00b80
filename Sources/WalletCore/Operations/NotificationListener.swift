import PasswrightLogging

/// Hears another instance's work through PostgreSQL `NOTIFY`: rings `doorbell` for each notification
/// until the task is cancelled, and after a lost connection listens again after a pause (100 ms,
/// doubling up to 30 s). How the webhook and bulk job workers learn of work queued elsewhere.
enum NotificationListener {
    /// `listen` listens until cancelled (returning) or until its connection fails (throwing); `what`
    /// names the listener in the log.
    static func run(
        _ what: String, doorbell: Doorbell, logger: Logger, _ listen: (@escaping @Sendable () -> Void) async throws -> Void
    ) async {
        var pause = Duration.milliseconds(100)
        while !Task.isCancelled {
            do {
                try await listen { doorbell.ring() }
                return
            } catch {
                logger.warning("\(what) listener lost its PostgreSQL connection; reconnecting", ["error": "\(error)"])
            }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(30))
        }
    }
}
