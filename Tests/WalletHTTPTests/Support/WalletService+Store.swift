@testable import WalletCore
import WalletHTTP
import WalletStore

extension WalletService {
    /// The store under the running service, for tests that check what a request left behind. Only
    /// tests reach it (through `@testable`): the routes go through WalletCore's services.
    var store: WalletStore { services.store }
}
