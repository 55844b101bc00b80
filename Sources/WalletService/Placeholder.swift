import WalletStore
// Placeholder: replaced by the target's real sources.
