import WalletStore

/// Finding passes across templates and pass types (the web console's pass list).
public extension PassService {
    /// One page of the passes `search` matches (a serial number prefix or a value in the record,
    /// optionally within one template), in serial number order; continue with the page's `next`.
    /// See ``WalletStore/searchPasses(_:)`` for what each kind of match costs.
    func search(_ search: PassSearch) async throws -> PassSearchPage {
        try await store.searchPasses(search)
    }
}
