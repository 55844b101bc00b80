internal import CCurl
// Placeholder: replaced by the target's real sources.
