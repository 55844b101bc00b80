/// Machine-readable meaning of a pass or field (Apple's `SemanticTags`): what Siri, Maps,
/// Live Activities, poster event tickets and semantic boarding passes read.
///
/// Every tag Apple's SemanticTags reference lists is a typed property. Time zones have two spellings in Apple's own
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
    /// AirPlay devices for the event; kept as raw JSON (shape not fixed by Apple's reference).
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
    package static let blank = SemanticTags()

    package static let schema = Schema<SemanticTags>([
        Property("eventName", { $0.eventName }, { $0.eventName = $1 }),
        Property("eventType", { $0.eventType }, { $0.eventType = $1 }),
        Property("eventStartDate", { $0.eventStartDate }, { $0.eventStartDate = $1 }),
        Property("eventEndDate", { $0.eventEndDate }, { $0.eventEndDate = $1 }),
        Property("eventStartDateInfo", { $0.eventStartDateInfo }, { $0.eventStartDateInfo = $1 }),
        Property("eventLiveMessage", { $0.eventLiveMessage }, { $0.eventLiveMessage = $1 }),
        Property("genre", { $0.genre }, { $0.genre = $1 }),
        Property("performerNames", { $0.performerNames }, { $0.performerNames = $1 }),
        Property("artistIDs", { $0.artistIDs }, { $0.artistIDs = $1 }),
        Property("albumIDs", { $0.albumIDs }, { $0.albumIDs = $1 }),
        Property("playlistIDs", { $0.playlistIDs }, { $0.playlistIDs = $1 }),
        Property("admissionLevel", { $0.admissionLevel }, { $0.admissionLevel = $1 }),
        Property("admissionLevelAbbreviation", { $0.admissionLevelAbbreviation }, { $0.admissionLevelAbbreviation = $1 }),
        Property("attendeeName", { $0.attendeeName }, { $0.attendeeName = $1 }),
        Property("additionalTicketAttributes", { $0.additionalTicketAttributes }, { $0.additionalTicketAttributes = $1 }),
        Property("entranceDescription", { $0.entranceDescription }, { $0.entranceDescription = $1 }),
        Property("tailgatingAllowed", { $0.tailgatingAllowed }, { $0.tailgatingAllowed = $1 }),
        Property("airplay", { $0.airplay }, { $0.airplay = $1 }),
        Property("seats", { $0.seats }, { $0.seats = $1 }),
        Property("venueName", { $0.venueName }, { $0.venueName = $1 }),
        Property("venueLocation", { $0.venueLocation }, { $0.venueLocation = $1 }),
        Property("venueRoom", { $0.venueRoom }, { $0.venueRoom = $1 }),
        Property("venueRegionName", { $0.venueRegionName }, { $0.venueRegionName = $1 }),
        Property("venueEntrance", { $0.venueEntrance }, { $0.venueEntrance = $1 }),
        Property("venueEntranceGate", { $0.venueEntranceGate }, { $0.venueEntranceGate = $1 }),
        Property("venueEntranceDoor", { $0.venueEntranceDoor }, { $0.venueEntranceDoor = $1 }),
        Property("venueEntrancePortal", { $0.venueEntrancePortal }, { $0.venueEntrancePortal = $1 }),
        Property("venuePhoneNumber", { $0.venuePhoneNumber }, { $0.venuePhoneNumber = $1 }),
        Property("venueGatesOpenDate", { $0.venueGatesOpenDate }, { $0.venueGatesOpenDate = $1 }),
        Property("venueDoorsOpenDate", { $0.venueDoorsOpenDate }, { $0.venueDoorsOpenDate = $1 }),
        Property("venueParkingLotsOpenDate", { $0.venueParkingLotsOpenDate }, { $0.venueParkingLotsOpenDate = $1 }),
        Property("venueBoxOfficeOpenDate", { $0.venueBoxOfficeOpenDate }, { $0.venueBoxOfficeOpenDate = $1 }),
        Property("venueFanZoneOpenDate", { $0.venueFanZoneOpenDate }, { $0.venueFanZoneOpenDate = $1 }),
        Property("venueOpenDate", { $0.venueOpenDate }, { $0.venueOpenDate = $1 }),
        Property("venueCloseDate", { $0.venueCloseDate }, { $0.venueCloseDate = $1 }),
        Property("venuePlaceID", { $0.venuePlaceID }, { $0.venuePlaceID = $1 }),
        Property("homeTeamName", { $0.homeTeamName }, { $0.homeTeamName = $1 }),
        Property("homeTeamLocation", { $0.homeTeamLocation }, { $0.homeTeamLocation = $1 }),
        Property("homeTeamAbbreviation", { $0.homeTeamAbbreviation }, { $0.homeTeamAbbreviation = $1 }),
        Property("awayTeamName", { $0.awayTeamName }, { $0.awayTeamName = $1 }),
        Property("awayTeamLocation", { $0.awayTeamLocation }, { $0.awayTeamLocation = $1 }),
        Property("awayTeamAbbreviation", { $0.awayTeamAbbreviation }, { $0.awayTeamAbbreviation = $1 }),
        Property("leagueName", { $0.leagueName }, { $0.leagueName = $1 }),
        Property("leagueAbbreviation", { $0.leagueAbbreviation }, { $0.leagueAbbreviation = $1 }),
        Property("sportName", { $0.sportName }, { $0.sportName = $1 }),
        Property("transitProvider", { $0.transitProvider }, { $0.transitProvider = $1 }),
        Property("transitStatus", { $0.transitStatus }, { $0.transitStatus = $1 }),
        Property("transitStatusReason", { $0.transitStatusReason }, { $0.transitStatusReason = $1 }),
        Property("vehicleName", { $0.vehicleName }, { $0.vehicleName = $1 }),
        Property("vehicleNumber", { $0.vehicleNumber }, { $0.vehicleNumber = $1 }),
        Property("vehicleType", { $0.vehicleType }, { $0.vehicleType = $1 }),
        Property("departureLocation", { $0.departureLocation }, { $0.departureLocation = $1 }),
        Property("departureLocationDescription", { $0.departureLocationDescription }, { $0.departureLocationDescription = $1 }),
        Property("destinationLocation", { $0.destinationLocation }, { $0.destinationLocation = $1 }),
        Property("destinationLocationDescription", { $0.destinationLocationDescription }, { $0.destinationLocationDescription = $1 }),
        Property("departurePlatform", { $0.departurePlatform }, { $0.departurePlatform = $1 }),
        Property("destinationPlatform", { $0.destinationPlatform }, { $0.destinationPlatform = $1 }),
        Property("departureStationName", { $0.departureStationName }, { $0.departureStationName = $1 }),
        Property("destinationStationName", { $0.destinationStationName }, { $0.destinationStationName = $1 }),
        Property("carNumber", { $0.carNumber }, { $0.carNumber = $1 }),
        Property("originalDepartureDate", { $0.originalDepartureDate }, { $0.originalDepartureDate = $1 }),
        Property("currentDepartureDate", { $0.currentDepartureDate }, { $0.currentDepartureDate = $1 }),
        Property("originalArrivalDate", { $0.originalArrivalDate }, { $0.originalArrivalDate = $1 }),
        Property("currentArrivalDate", { $0.currentArrivalDate }, { $0.currentArrivalDate = $1 }),
        Property("originalBoardingDate", { $0.originalBoardingDate }, { $0.originalBoardingDate = $1 }),
        Property("currentBoardingDate", { $0.currentBoardingDate }, { $0.currentBoardingDate = $1 }),
        Property("boardingGroup", { $0.boardingGroup }, { $0.boardingGroup = $1 }),
        Property("boardingSequenceNumber", { $0.boardingSequenceNumber }, { $0.boardingSequenceNumber = $1 }),
        Property("boardingZone", { $0.boardingZone }, { $0.boardingZone = $1 }),
        Property("confirmationNumber", { $0.confirmationNumber }, { $0.confirmationNumber = $1 }),
        Property("duration", { $0.duration }, { $0.duration = $1 }),
        Property("passengerName", { $0.passengerName }, { $0.passengerName = $1 }),
        Property("membershipProgramName", { $0.membershipProgramName }, { $0.membershipProgramName = $1 }),
        Property("membershipProgramNumber", { $0.membershipProgramNumber }, { $0.membershipProgramNumber = $1 }),
        Property("membershipProgramStatus", { $0.membershipProgramStatus }, { $0.membershipProgramStatus = $1 }),
        Property("priorityStatus", { $0.priorityStatus }, { $0.priorityStatus = $1 }),
        Property("securityScreening", { $0.securityScreening }, { $0.securityScreening = $1 }),
        Property("silenceRequested", { $0.silenceRequested }, { $0.silenceRequested = $1 }),
        Property("totalPrice", { $0.totalPrice }, { $0.totalPrice = $1 }),
        Property("balance", { $0.balance }, { $0.balance = $1 }),
        Property("wifiAccess", { $0.wifiAccess }, { $0.wifiAccess = $1 }),
        Property("airlineCode", { $0.airlineCode }, { $0.airlineCode = $1 }),
        Property("flightCode", { $0.flightCode }, { $0.flightCode = $1 }),
        Property("flightNumber", { $0.flightNumber }, { $0.flightNumber = $1 }),
        Property("departureAirportCode", { $0.departureAirportCode }, { $0.departureAirportCode = $1 }),
        Property("departureAirportName", { $0.departureAirportName }, { $0.departureAirportName = $1 }),
        Property("destinationAirportCode", { $0.destinationAirportCode }, { $0.destinationAirportCode = $1 }),
        Property("destinationAirportName", { $0.destinationAirportName }, { $0.destinationAirportName = $1 }),
        Property("departureGate", { $0.departureGate }, { $0.departureGate = $1 }),
        Property("destinationGate", { $0.destinationGate }, { $0.destinationGate = $1 }),
        Property("departureTerminal", { $0.departureTerminal }, { $0.departureTerminal = $1 }),
        Property("destinationTerminal", { $0.destinationTerminal }, { $0.destinationTerminal = $1 }),
        Property("departureCityName", { $0.departureCityName }, { $0.departureCityName = $1 }),
        Property("destinationCityName", { $0.destinationCityName }, { $0.destinationCityName = $1 }),
        Property("ticketFareClass", { $0.ticketFareClass }, { $0.ticketFareClass = $1 }),
        Property("passengerCapabilities", { $0.passengerCapabilities }, { $0.passengerCapabilities = $1 }),
        Property("passengerEligibleSecurityPrograms", { $0.passengerEligibleSecurityPrograms }, { $0.passengerEligibleSecurityPrograms = $1 }),
        Property("passengerServiceSSRs", { $0.passengerServiceSSRs }, { $0.passengerServiceSSRs = $1 }),
        Property("passengerInformationSSRs", { $0.passengerInformationSSRs }, { $0.passengerInformationSSRs = $1 }),
        Property("passengerAirlineSSRs", { $0.passengerAirlineSSRs }, { $0.passengerAirlineSSRs = $1 }),
        Property("internationalDocumentsAreVerified", { $0.internationalDocumentsAreVerified }, { $0.internationalDocumentsAreVerified = $1 }),
        Property("internationalDocumentsVerifiedDeclarationName", { $0.internationalDocumentsVerifiedDeclarationName }, { $0.internationalDocumentsVerifiedDeclarationName = $1 }),
        Property("departureLocationSecurityPrograms", { $0.departureLocationSecurityPrograms }, { $0.departureLocationSecurityPrograms = $1 }),
        Property("destinationLocationSecurityPrograms", { $0.destinationLocationSecurityPrograms }, { $0.destinationLocationSecurityPrograms = $1 }),
        Property("departureAirportSecurityPrograms", { $0.departureAirportSecurityPrograms }, { $0.departureAirportSecurityPrograms = $1 }),
        Property("destinationAirportSecurityPrograms", { $0.destinationAirportSecurityPrograms }, { $0.destinationAirportSecurityPrograms = $1 }),
        Property("loungePlaceIDs", { $0.loungePlaceIDs }, { $0.loungePlaceIDs = $1 }),
        Property("airlineLoungePlaceID", { $0.airlineLoungePlaceID }, { $0.airlineLoungePlaceID = $1 }),
        Property("departureLocationTimeZone", { $0.departureTimeZone }, { $0.departureTimeZone = $1 }),
        Property("departureAirportTimeZone", { $0.departureTimeZone }, { $0.departureTimeZone = $1 }),
        Property("destinationLocationTimeZone", { $0.destinationTimeZone }, { $0.destinationTimeZone = $1 }),
        Property("destinationAirportTimeZone", { $0.destinationTimeZone }, { $0.destinationTimeZone = $1 }),
    ])
}
