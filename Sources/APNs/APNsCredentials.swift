import HTTPClient

/// The TLS client identity APNs authenticates a pass type by: the Pass Type ID certificate (followed
/// by its WWDR intermediate) and its private key, the same pair that signs the passes (Apple's APNs
/// documentation). PEM bytes in memory, handed to libcurl as blobs: the key is never written to a file
/// or put on a command line, and never printed.
public typealias APNsCredentials = HTTPClientIdentity
