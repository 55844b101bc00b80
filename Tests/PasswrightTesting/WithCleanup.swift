/// Runs `body`, then `cleanup`, whether `body` returned or threw: the `async` `defer` Swift lacks, so
/// a scoped helper (`withServer`, `withDatabase`, `withStandIn`) always closes what it opened.
public func withCleanup<T>(_ body: () async throws -> T, cleanup: () async -> Void) async throws -> T {
    do {
        let result = try await body()
        await cleanup()
        return result
    } catch {
        await cleanup()
        throw error
    }
}
