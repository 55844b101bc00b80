internal import CSQLite
// Placeholder: replaced by the target's real sources.
