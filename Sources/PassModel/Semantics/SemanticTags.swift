/// Machine-readable meaning of a pass or field (Apple's `SemanticTags`, §2.11): what Siri, Maps,
/// Live Activities, poster event tickets and semantic boarding passes read.
///
/// Every tag the digest lists is a typed property. Time zones have two spellings in Apple's own
/// sources (`departureLocationTimeZone` in the docs, `departureAirportTimeZone` in pass-builder);
/// either is read and both are written, since it is unconfirmed which one Wallet reads.
public struct SemanticTags: Sendable, Hashable {
    // MARK: Events
    /// Event title; required for poster event tickets.
    public var eventName: String?
    /// Kind of event; sports and live performances need extra tags on posters.
    public var eventType: EventType?
    /// When the event starts.
    public var eventStartDate: W3CDate?
    /// When the event ends.
    public var eventEndDate: W3CDate?
    /// Start date with TBA/TBD handling (iOS 18.1).
    public var eventStartDateInfo: EventDateInfo?
    /// Live Activity message.
    public var eventLiveMessage: String?
    /// Genre of the event.
    public var genre: String?
    /// Performers; required on live-performance posters.
    public var performerNames: [String]?
    /// Apple Music artist IDs; strings only (numbers crash Wallet).
    public var artistIDs: [String]?
    /// Apple Music album IDs; strings only.
    public var albumIDs: [String]?
    /// Apple Music playlist IDs; strings only.
    public var playlistIDs: [String]?
    /// Admission level, e.g. "VIP".
    public var admissionLevel: String?
    /// Short admission level.
    public var admissionLevelAbbreviation: String?
    /// Ticket holder.
    public var attendeeName: String?
    /// Extra ticket details.
    public var additionalTicketAttributes: String?
    /// Where to enter.
    public var entranceDescription: String?
    /// Whether tailgating is allowed.
    public var tailgatingAllowed: Bool?
    /// AirPlay devices for the event; kept as raw JSON (shape not fixed by the digest).
    public var airplay: JSONValue?
    /// Seats the ticket admits to.
    public var seats: [Seat]?
    // MARK: Venue
    /// Venue name; required for poster event tickets.
    public var venueName: String?
    /// Venue coordinates.
    public var venueLocation: Location?
    /// Room or hall.
    public var venueRoom: String?
    /// City or region of the venue.
    public var venueRegionName: String?
    /// Entrance.
    public var venueEntrance: String?
    /// Entrance gate.
    public var venueEntranceGate: String?
    /// Entrance door.
    public var venueEntranceDoor: String?
    /// Entrance portal.
    public var venueEntrancePortal: String?
    /// Venue phone number.
    public var venuePhoneNumber: String?
    /// When gates open.
    public var venueGatesOpenDate: W3CDate?
    /// When doors open.
    public var venueDoorsOpenDate: W3CDate?
    /// When parking opens.
    public var venueParkingLotsOpenDate: W3CDate?
    /// When the box office opens.
    public var venueBoxOfficeOpenDate: W3CDate?
    /// When the fan zone opens.
    public var venueFanZoneOpenDate: W3CDate?
    /// When the venue opens.
    public var venueOpenDate: W3CDate?
    /// When the venue closes.
    public var venueCloseDate: W3CDate?
    /// Apple Maps place ID (upcoming events).
    public var venuePlaceID: String?
    // MARK: Sports
    /// Home team.
    public var homeTeamName: String?
    /// Home team's city.
    public var homeTeamLocation: String?
    /// Home team abbreviation; required on sports posters.
    public var homeTeamAbbreviation: String?
    /// Away team.
    public var awayTeamName: String?
    /// Away team's city.
    public var awayTeamLocation: String?
    /// Away team abbreviation; required on sports posters.
    public var awayTeamAbbreviation: String?
    /// League.
    public var leagueName: String?
    /// League abbreviation.
    public var leagueAbbreviation: String?
    /// Sport.
    public var sportName: String?
    // MARK: Transit
    /// Carrier.
    public var transitProvider: String?
    /// Status, e.g. delayed.
    public var transitStatus: String?
    /// Why the status.
    public var transitStatusReason: String?
    /// Vehicle name.
    public var vehicleName: String?
    /// Vehicle number.
    public var vehicleNumber: String?
    /// Vehicle type.
    public var vehicleType: String?
    /// Departure coordinates.
    public var departureLocation: Location?
    /// Departure place.
    public var departureLocationDescription: String?
    /// Destination coordinates.
    public var destinationLocation: Location?
    /// Destination place.
    public var destinationLocationDescription: String?
    /// Departure platform.
    public var departurePlatform: String?
    /// Arrival platform.
    public var destinationPlatform: String?
    /// Departure station.
    public var departureStationName: String?
    /// Arrival station.
    public var destinationStationName: String?
    /// Train car.
    public var carNumber: String?
    /// Scheduled departure; required for semantic boarding passes.
    public var originalDepartureDate: W3CDate?
    /// Updated departure.
    public var currentDepartureDate: W3CDate?
    /// Scheduled arrival; required for semantic boarding passes.
    public var originalArrivalDate: W3CDate?
    /// Updated arrival.
    public var currentArrivalDate: W3CDate?
    /// Scheduled boarding; required for semantic boarding passes.
    public var originalBoardingDate: W3CDate?
    /// Updated boarding.
    public var currentBoardingDate: W3CDate?
    /// Boarding group.
    public var boardingGroup: String?
    /// Boarding sequence.
    public var boardingSequenceNumber: String?
    /// Boarding zone (iOS 26).
    public var boardingZone: String?
    /// Booking reference.
    public var confirmationNumber: String?
    /// Trip length in seconds.
    public var duration: Double?
    /// Passenger; required for semantic boarding passes.
    public var passengerName: PersonNameComponents?
    /// Loyalty programme.
    public var membershipProgramName: String?
    /// Loyalty number.
    public var membershipProgramNumber: String?
    /// Loyalty tier (iOS 26).
    public var membershipProgramStatus: String?
    /// Priority status.
    public var priorityStatus: String?
    /// Security screening.
    public var securityScreening: String?
    /// Quiet car or cabin.
    public var silenceRequested: Bool?
    /// Total price.
    public var totalPrice: CurrencyAmount?
    /// Remaining balance.
    public var balance: CurrencyAmount?
    /// Networks the holder may join.
    public var wifiAccess: [WifiNetwork]?
    // MARK: Air
    /// IATA airline code; required for semantic boarding passes.
    public var airlineCode: String?
    /// Flight code, e.g. "UA123".
    public var flightCode: String?
    /// Flight number (a number); required for semantic boarding passes.
    public var flightNumber: Double?
    /// IATA departure airport; required for semantic boarding passes.
    public var departureAirportCode: String?
    /// Departure airport.
    public var departureAirportName: String?
    /// IATA arrival airport; required for semantic boarding passes.
    public var destinationAirportCode: String?
    /// Arrival airport.
    public var destinationAirportName: String?
    /// Departure gate.
    public var departureGate: String?
    /// Arrival gate.
    public var destinationGate: String?
    /// Departure terminal.
    public var departureTerminal: String?
    /// Arrival terminal.
    public var destinationTerminal: String?
    /// Departure city (iOS 26; recommended for semantic boarding passes).
    public var departureCityName: String?
    /// Arrival city (iOS 26; recommended for semantic boarding passes).
    public var destinationCityName: String?
    /// Fare class (iOS 26).
    public var ticketFareClass: String?
    /// What the passenger may do (iOS 26).
    public var passengerCapabilities: [PassengerCapability]?
    /// Security programmes (iOS 26).
    public var passengerEligibleSecurityPrograms: [TransitSecurityProgram]?
    /// Service SSR codes.
    public var passengerServiceSSRs: [String]?
    /// Information SSR codes.
    public var passengerInformationSSRs: [String]?
    /// Airline SSR codes.
    public var passengerAirlineSSRs: [String]?
    /// Travel documents checked.
    public var internationalDocumentsAreVerified: Bool?
    /// Who verified the documents.
    public var internationalDocumentsVerifiedDeclarationName: String?
    /// Departure security programmes (Apple docs spelling).
    public var departureLocationSecurityPrograms: [TransitSecurityProgram]?
    /// Arrival security programmes (Apple docs spelling).
    public var destinationLocationSecurityPrograms: [TransitSecurityProgram]?
    /// Departure security programmes (pass-builder spelling).
    public var departureAirportSecurityPrograms: [TransitSecurityProgram]?
    /// Arrival security programmes (pass-builder spelling).
    public var destinationAirportSecurityPrograms: [TransitSecurityProgram]?
    /// Lounges (Apple docs spelling).
    public var loungePlaceIDs: [String]?
    /// Lounge (pass-builder spelling).
    public var airlineLoungePlaceID: String?
    // MARK: Time zones (two spellings)
    /// Departure time zone identifier; required for semantic boarding passes. Read from `departureLocationTimeZone` or `departureAirportTimeZone`; written as both.
    public var departureTimeZone: String?
    /// Arrival time zone identifier; recommended for semantic boarding passes. Read from `destinationLocationTimeZone` or `destinationAirportTimeZone`; written as both.
    public var destinationTimeZone: String?
    /// Tags PassModel does not know, kept for round trips.
    public var unknownKeys: JSONObject = [:]

    /// Creates empty semantics.
    public init() {}
}

extension SemanticTags: JSONModel {
    static let blank = SemanticTags()

    static let schema = Schema<SemanticTags>([
        Property("eventName", \.eventName),
        Property("eventType", \.eventType),
        Property("eventStartDate", \.eventStartDate),
        Property("eventEndDate", \.eventEndDate),
        Property("eventStartDateInfo", \.eventStartDateInfo),
        Property("eventLiveMessage", \.eventLiveMessage),
        Property("genre", \.genre),
        Property("performerNames", \.performerNames),
        Property("artistIDs", \.artistIDs),
        Property("albumIDs", \.albumIDs),
        Property("playlistIDs", \.playlistIDs),
        Property("admissionLevel", \.admissionLevel),
        Property("admissionLevelAbbreviation", \.admissionLevelAbbreviation),
        Property("attendeeName", \.attendeeName),
        Property("additionalTicketAttributes", \.additionalTicketAttributes),
        Property("entranceDescription", \.entranceDescription),
        Property("tailgatingAllowed", \.tailgatingAllowed),
        Property("airplay", \.airplay),
        Property("seats", \.seats),
        Property("venueName", \.venueName),
        Property("venueLocation", \.venueLocation),
        Property("venueRoom", \.venueRoom),
        Property("venueRegionName", \.venueRegionName),
        Property("venueEntrance", \.venueEntrance),
        Property("venueEntranceGate", \.venueEntranceGate),
        Property("venueEntranceDoor", \.venueEntranceDoor),
        Property("venueEntrancePortal", \.venueEntrancePortal),
        Property("venuePhoneNumber", \.venuePhoneNumber),
        Property("venueGatesOpenDate", \.venueGatesOpenDate),
        Property("venueDoorsOpenDate", \.venueDoorsOpenDate),
        Property("venueParkingLotsOpenDate", \.venueParkingLotsOpenDate),
        Property("venueBoxOfficeOpenDate", \.venueBoxOfficeOpenDate),
        Property("venueFanZoneOpenDate", \.venueFanZoneOpenDate),
        Property("venueOpenDate", \.venueOpenDate),
        Property("venueCloseDate", \.venueCloseDate),
        Property("venuePlaceID", \.venuePlaceID),
        Property("homeTeamName", \.homeTeamName),
        Property("homeTeamLocation", \.homeTeamLocation),
        Property("homeTeamAbbreviation", \.homeTeamAbbreviation),
        Property("awayTeamName", \.awayTeamName),
        Property("awayTeamLocation", \.awayTeamLocation),
        Property("awayTeamAbbreviation", \.awayTeamAbbreviation),
        Property("leagueName", \.leagueName),
        Property("leagueAbbreviation", \.leagueAbbreviation),
        Property("sportName", \.sportName),
        Property("transitProvider", \.transitProvider),
        Property("transitStatus", \.transitStatus),
        Property("transitStatusReason", \.transitStatusReason),
        Property("vehicleName", \.vehicleName),
        Property("vehicleNumber", \.vehicleNumber),
        Property("vehicleType", \.vehicleType),
        Property("departureLocation", \.departureLocation),
        Property("departureLocationDescription", \.departureLocationDescription),
        Property("destinationLocation", \.destinationLocation),
        Property("destinationLocationDescription", \.destinationLocationDescription),
        Property("departurePlatform", \.departurePlatform),
        Property("destinationPlatform", \.destinationPlatform),
        Property("departureStationName", \.departureStationName),
        Property("destinationStationName", \.destinationStationName),
        Property("carNumber", \.carNumber),
        Property("originalDepartureDate", \.originalDepartureDate),
        Property("currentDepartureDate", \.currentDepartureDate),
        Property("originalArrivalDate", \.originalArrivalDate),
        Property("currentArrivalDate", \.currentArrivalDate),
        Property("originalBoardingDate", \.originalBoardingDate),
        Property("currentBoardingDate", \.currentBoardingDate),
        Property("boardingGroup", \.boardingGroup),
        Property("boardingSequenceNumber", \.boardingSequenceNumber),
        Property("boardingZone", \.boardingZone),
        Property("confirmationNumber", \.confirmationNumber),
        Property("duration", \.duration),
        Property("passengerName", \.passengerName),
        Property("membershipProgramName", \.membershipProgramName),
        Property("membershipProgramNumber", \.membershipProgramNumber),
        Property("membershipProgramStatus", \.membershipProgramStatus),
        Property("priorityStatus", \.priorityStatus),
        Property("securityScreening", \.securityScreening),
        Property("silenceRequested", \.silenceRequested),
        Property("totalPrice", \.totalPrice),
        Property("balance", \.balance),
        Property("wifiAccess", \.wifiAccess),
        Property("airlineCode", \.airlineCode),
        Property("flightCode", \.flightCode),
        Property("flightNumber", \.flightNumber),
        Property("departureAirportCode", \.departureAirportCode),
        Property("departureAirportName", \.departureAirportName),
        Property("destinationAirportCode", \.destinationAirportCode),
        Property("destinationAirportName", \.destinationAirportName),
        Property("departureGate", \.departureGate),
        Property("destinationGate", \.destinationGate),
        Property("departureTerminal", \.departureTerminal),
        Property("destinationTerminal", \.destinationTerminal),
        Property("departureCityName", \.departureCityName),
        Property("destinationCityName", \.destinationCityName),
        Property("ticketFareClass", \.ticketFareClass),
        Property("passengerCapabilities", \.passengerCapabilities),
        Property("passengerEligibleSecurityPrograms", \.passengerEligibleSecurityPrograms),
        Property("passengerServiceSSRs", \.passengerServiceSSRs),
        Property("passengerInformationSSRs", \.passengerInformationSSRs),
        Property("passengerAirlineSSRs", \.passengerAirlineSSRs),
        Property("internationalDocumentsAreVerified", \.internationalDocumentsAreVerified),
        Property("internationalDocumentsVerifiedDeclarationName", \.internationalDocumentsVerifiedDeclarationName),
        Property("departureLocationSecurityPrograms", \.departureLocationSecurityPrograms),
        Property("destinationLocationSecurityPrograms", \.destinationLocationSecurityPrograms),
        Property("departureAirportSecurityPrograms", \.departureAirportSecurityPrograms),
        Property("destinationAirportSecurityPrograms", \.destinationAirportSecurityPrograms),
        Property("loungePlaceIDs", \.loungePlaceIDs),
        Property("airlineLoungePlaceID", \.airlineLoungePlaceID),
        Property("departureLocationTimeZone", \.departureTimeZone),
        Property("departureAirportTimeZone", \.departureTimeZone),
        Property("destinationLocationTimeZone", \.destinationTimeZone),
        Property("destinationAirportTimeZone", \.destinationTimeZone),
    ])
}
