/// Whether a registration is new, which the web service answers with 201 or 200.
public enum RegistrationResult: Sendable, Hashable {
    /// The device was not registered for the pass: HTTP 201.
    case created
    /// The device was registered already (its push token was still updated): HTTP 200.
    case alreadyRegistered
}
