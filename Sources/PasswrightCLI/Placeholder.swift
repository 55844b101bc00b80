internal import PassCompiler
// Placeholder: replaced by the target's real sources.
