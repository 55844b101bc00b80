internal import CMicroHTTPD
// Placeholder: replaced by the target's real sources.
