import PassModel
// Placeholder: replaced by the target's real sources.
