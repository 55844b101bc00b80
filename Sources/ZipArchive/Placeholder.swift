internal import CZip
// Placeholder: replaced by the target's real sources.
