/// An airport security programme a passenger is eligible for (iOS 26, Apple's SemanticTags reference).
public enum TransitSecurityProgram: String, Sendable, Hashable, CaseIterable, JSONStringEnum {
    case tsaPreCheck = "PKTransitSecurityProgramTSAPreCheck"
    case tsaPreCheckTouchlessID = "PKTransitSecurityProgramTSAPreCheckTouchlessID"
    case oss = "PKTransitSecurityProgramOSS"
    case iti = "PKTransitSecurityProgramITI"
    case itd = "PKTransitSecurityProgramITD"
    case globalEntry = "PKTransitSecurityProgramGlobalEntry"
    case clear = "PKTransitSecurityProgramCLEAR"
}
