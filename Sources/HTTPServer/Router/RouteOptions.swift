/// Limits that differ from one route to another.
public struct RouteOptions: Sendable {
    /// The largest body this route accepts, in bytes; `nil` uses the server's default.
    /// A larger body is refused with `413` before it is buffered.
    public var maxBodySize: Int?

    /// Creates options; the defaults defer to the server configuration.
    public init(maxBodySize: Int? = nil) {
        self.maxBodySize = maxBodySize
    }
}
