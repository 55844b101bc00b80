import Foundation
import PasswrightLogging
import PasswrightTesting
import Signing
import WalletStore
@testable import WalletCore
@testable import WalletHTTP

/// The sample templates (or another folder of template folders) imported into `store` as versions,
/// as `serve --templates` does at start, and the library that issues from them.
func importedTemplates(into store: WalletStore, folder: URL = Samples.templatesFolder) async throws -> TemplateLibrary {
    let identities = try ServiceIdentities.shared()
    let library = TemplateLibrary(
        store: store, identities: IdentityDirectory(root: identities.folder, passphrase: { _ in nil }),
        webServiceURL: "\(TestService.publicURL)/wallet/")
    let rollouts = RolloutWorker(passes: PassService(store: store, templates: library), logger: Logger(label: "test"))
    let service = TemplateService(store: store, library: library, rollouts: rollouts)
    _ = try await service.importFolders(in: folder, logger: Logger(label: "test", level: .error))
    return library
}
