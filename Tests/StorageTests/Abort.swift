/// An error of the test's own, to check a transaction rethrows the body's error unchanged.
struct Abort: Error, Equatable {}
