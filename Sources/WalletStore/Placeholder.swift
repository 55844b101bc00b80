import Storage
// Placeholder: replaced by the target's real sources.
