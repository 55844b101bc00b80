import Foundation
import WalletStore

extension PassService {
    /// Builds and signs, before the pushes of `jobs` go out, the passes their devices will fetch, into
    /// the signed-pass cache, so each device's fetch is a copy and every device of a pass shares one
    /// signature. The push worker calls this per slice of a claimed batch and sends that slice's
    /// pushes only after it returns: pushes then never outrun signing, so a wave goes at the signing
    /// rate of this machine when that is below `--push-rate` (fleet benchmark, BENCHMARKS.md).
    ///
    /// Builds run on twice as many tasks as there are cores, so a build waiting for its compiler or a
    /// slice's tail does not leave a core idle (the fleet's roll-out went from 581 to 671 refreshed
    /// passes a second against one task per core). A pass that cannot be read or built is left to the
    /// device's own fetch, which answers with the true error; nothing here fails a push.
    func signAhead(_ jobs: [PushJob]) async {
        guard signedPasses.budget > 0 else { return }
        guard let passes = try? await store.passesToRefresh(after: jobs) else { return }
        let pending = passes.filter { !signedPasses.holds(SignedPassCache.Version($0)) }
        let width = 2 * PassWriter.planningWidth
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            for pass in pending {
                if running >= width {
                    await group.next()
                    running -= 1
                }
                group.addTask {
                    guard let compiler = try? await self.templates.compiler(for: pass) else { return }
                    _ = try? self.packaged(pass, with: compiler)
                }
                running += 1
            }
        }
    }
}
