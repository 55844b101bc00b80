/// What an erasure (`DELETE /api/v1/passes/{type}/{serial}`, `POST /api/v1/erasures`) did, per pass.
public struct ErasureResult: WireValue {
    public static let schemaName = "ErasureResult"

    public var erased: [Pass]

    public init(erased: [Pass]) {
        self.erased = erased
    }

    public struct Pass: Codable, Sendable, Equatable {
        public var passTypeIdentifier: String
        public var serialNumber: String
        /// Erased by an earlier request: nothing was done now.
        public var alreadyErased: Bool
        /// Pushes queued now, so the devices fetch the voided pass.
        public var pushesQueued: Int

        public init(passTypeIdentifier: String, serialNumber: String, alreadyErased: Bool, pushesQueued: Int) {
            (self.passTypeIdentifier, self.serialNumber, self.alreadyErased, self.pushesQueued) = (passTypeIdentifier, serialNumber, alreadyErased, pushesQueued)
        }
    }

    public init(_ erasures: [PassService.Erasure]) {
        erased = erasures.map {
            Pass(passTypeIdentifier: $0.key.passTypeIdentifier, serialNumber: $0.key.serialNumber, alreadyErased: $0.alreadyErased, pushesQueued: $0.pushesQueued)
        }
    }
}
