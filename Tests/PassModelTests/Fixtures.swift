import Foundation
import PassModel

/// Realistic pass.json documents, one per style, that Wallet accepts and that validate clean.
enum Fixtures {
    static let common = """
      "formatVersion": 1,
      "passTypeIdentifier": "pass.com.example.test",
      "serialNumber": "SN-0001",
      "teamIdentifier": "A1B2C3D4E5",
      "organizationName": "Example Co",
      "description": "Example pass for tests",
      "webServiceURL": "https://passes.example.com/wallet",
      "authenticationToken": "0123456789abcdef0123",
      "backgroundColor": "rgb(12, 34, 56)",
      "foregroundColor": "rgb(255, 255, 255)",
      "labelColor": "rgb(200, 210, 220)",
      "expirationDate": "2027-01-01T00:00:00Z",
      "sharingProhibited": true,
      "userInfo": {"tier": "gold", "points": 1200}
    """

    static let boardingPass = """
    {\(common),
      "groupingIdentifier": "trip-42",
      "relevantDates": [{"startDate": "2026-07-01T08:00:00-04:00", "endDate": "2026-07-01T12:00:00-04:00"}],
      "barcodes": [{"format": "PKBarcodeFormatPDF417", "message": "M1DOE/JANE", "messageEncoding": "iso-8859-1", "altText": "ABC123"}],
      "preferredStyleSchemes": ["semanticBoardingPass", "boardingPass"],
      "changeSeatURL": "https://air.example.com/seat",
      "semantics": {
        "airlineCode": "EX", "flightNumber": 123, "flightCode": "EX123",
        "originalDepartureDate": "2026-07-01T10:00:00-04:00",
        "originalBoardingDate": "2026-07-01T09:20:00-04:00",
        "originalArrivalDate": "2026-07-01T13:05:00-07:00",
        "departureAirportCode": "JFK", "destinationAirportCode": "SFO",
        "departureLocationTimeZone": "America/New_York", "destinationAirportTimeZone": "America/Los_Angeles",
        "departureCityName": "New York", "destinationCityName": "San Francisco",
        "passengerName": {"givenName": "Jane", "familyName": "Doe"},
        "passengerCapabilities": ["PKPassengerCapabilityPriorityBoarding"],
        "passengerEligibleSecurityPrograms": ["PKTransitSecurityProgramTSAPreCheck"]
      },
      "boardingPass": {
        "transitType": "PKTransitTypeAir",
        "headerFields": [{"key": "gate", "label": "Gate", "value": "B12", "changeMessage": "Gate changed to %@"}],
        "primaryFields": [{"key": "origin", "label": "New York", "value": "JFK"}, {"key": "destination", "label": "San Francisco", "value": "SFO"}],
        "secondaryFields": [{"key": "passenger", "label": "Passenger", "value": "Jane Doe"}],
        "auxiliaryFields": [{"key": "boards", "label": "Boards", "value": "2026-07-01T09:20:00-04:00", "timeStyle": "PKDateStyleShort", "ignoresTimeZone": true},
                            {"key": "seat", "label": "Seat", "value": "14C", "textAlignment": "PKTextAlignmentNatural"}],
        "backFields": [{"key": "terms", "label": "Terms", "value": "Call +1 555 0100", "dataDetectorTypes": ["PKDataDetectorTypePhoneNumber"]}]
      }
    }
    """

    static let coupon = """
    {\(common),
      "locations": [{"latitude": 37.3349, "longitude": -122.009, "relevantText": "Coffee nearby"}],
      "barcodes": [{"format": "PKBarcodeFormatQR", "message": "CPN-1", "messageEncoding": "iso-8859-1"}],
      "coupon": {
        "primaryFields": [{"key": "offer", "label": "Off", "value": 0.25, "numberStyle": "PKNumberStylePercent"}],
        "secondaryFields": [{"key": "expires", "label": "Expires", "value": "2026-12-31T23:59:00+01:00", "dateStyle": "PKDateStyleMedium"}],
        "auxiliaryFields": [{"key": "store", "label": "Store", "value": "Main St"}]
      }
    }
    """

    static let eventTicket = """
    {\(common),
      "preferredStyleSchemes": ["posterEventTicket", "eventTicket"],
      "eventLogoText": "Example Arena",
      "relevantDates": [{"date": "2026-09-12T19:30:00+02:00"}],
      "nfc": {"message": "TICKET-1", "encryptionPublicKey": "MDkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDIgAC", "requiresAuthentication": true},
      "bagPolicyURL": "https://arena.example.com/bags",
      "transferURL": "https://arena.example.com/transfer",
      "semantics": {
        "eventName": "Example Live", "venueName": "Example Arena", "eventType": "PKEventTypeLivePerformance",
        "performerNames": ["The Examples"], "artistIDs": ["123456"],
        "eventStartDate": "2026-09-12T19:30:00+02:00",
        "venueLocation": {"latitude": 48.85, "longitude": 2.35},
        "seats": [{"seatSection": "A", "seatRow": "5", "seatNumber": "12", "seatSectionColor": "#ff8800"}]
      },
      "upcomingPassInformation": [
        {"type": "event", "identifier": "night-1", "name": "Night one", "isActive": true,
         "dateInformation": {"date": "2026-09-12T19:30:00+02:00", "timeZone": "Europe/Paris"},
         "URLs": {"bagPolicyURL": "https://arena.example.com/bags"},
         "images": {"headerImage": {"reuseExisting": true},
                    "venueMap": {"URLs": [{"URL": "https://arena.example.com/map@2x.png", "SHA256": "abc", "scale": 2, "size": 1024}]}}}
      ],
      "eventTicket": {
        "headerFields": [{"key": "date", "label": "Date", "value": "2026-09-12T19:30:00+02:00", "dateStyle": "PKDateStyleShort", "timeStyle": "PKDateStyleShort"}],
        "primaryFields": [{"key": "event", "label": "Event", "value": "Example Live"}],
        "secondaryFields": [{"key": "section", "label": "Section", "value": "A"}],
        "auxiliaryFields": [{"key": "row", "label": "Row", "value": 5, "row": 0}, {"key": "seatno", "label": "Seat", "value": 12, "row": 1}],
        "additionalInfoFields": [{"key": "doors", "label": "Doors", "value": "18:30"}]
      }
    }
    """

    static let generic = """
    {\(common),
      "relevantDate": "2026-05-01T09:00+05:30",
      "beacons": [{"proximityUUID": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "major": 1, "minor": 65535}],
      "barcode": {"format": "PKBarcodeFormatQR", "message": "MEMBER-1", "messageEncoding": "iso-8859-1"},
      "barcodes": [{"format": "PKBarcodeFormatCode39", "message": "MEMBER1", "messageEncoding": "iso-8859-1"},
                   {"format": "PKBarcodeFormatQR", "message": "MEMBER-1", "messageEncoding": "iso-8859-1"}],
      "generic": {
        "primaryFields": [{"key": "member", "label": "Member", "value": "Jane Doe"}],
        "secondaryFields": [{"key": "since", "label": "Since", "value": "2020"}]
      },
      "posterGeneric": {
        "headerFields": [{"key": "tier", "label": "Tier", "value": "Gold"}],
        "primaryFields": [{"key": "member", "label": "Member", "value": "Jane Doe"}],
        "footerFields": [{"key": "id", "label": "ID", "value": "M-1"}]
      },
      "featuredActions": [{"identifier": "schedule", "type": "viewSchedule", "url": "https://example.com/schedule"}],
      "logoSymbolName": "star.fill"
    }
    """

    static let storeCard = """
    {\(common),
      "associatedStoreIdentifiers": [123456789],
      "appLaunchURL": "example://card",
      "locations": [{"latitude": -33.86, "longitude": 151.21, "altitude": 12.5}],
      "maxDistance": 50,
      "barcodes": [{"format": "PKBarcodeFormatCode128", "message": "4111", "messageEncoding": "iso-8859-1"},
                   {"format": "PKBarcodeFormatQR", "message": "4111", "messageEncoding": "iso-8859-1"}],
      "nfc": {"message": "VAS-1", "encryptionPublicKey": "MDkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDIgAC"},
      "storeCard": {
        "headerFields": [{"key": "points", "label": "Points", "value": 1200, "numberStyle": "PKNumberStyleDecimal"}],
        "primaryFields": [{"key": "balance", "label": "Balance", "value": 21.75, "currencyCode": "EUR", "changeMessage": "Balance is now %@"}],
        "secondaryFields": [{"key": "name", "label": "Name", "value": "Jane Doe"}]
      }
    }
    """

    /// The fixture for a style key.
    static func text(_ style: PassStyle) -> String {
        switch style {
        case .boardingPass: return boardingPass
        case .coupon: return coupon
        case .eventTicket: return eventTicket
        case .generic: return generic
        case .storeCard: return storeCard
        }
    }

    static func json(_ text: String) throws -> JSONValue {
        try JSONValue.parse(Data(text.utf8))
    }

    static func pass(_ text: String) throws -> Pass {
        try Pass.decode(Data(text.utf8)).0
    }

    /// The JSON tree of `text` with the value at a path of object keys and array indices replaced
    /// (`nil` removes an object member).
    static func edited(_ text: String, _ keys: [String], to value: JSONValue?) throws -> JSONValue {
        try edited(json(text), keys, to: value)
    }

    static func edited(_ tree: JSONValue, _ keys: [String], to value: JSONValue?) -> JSONValue {
        func apply(_ node: JSONValue, _ keys: ArraySlice<String>) -> JSONValue? {
            guard let key = keys.first else { return value }
            if case .array(var items) = node, let index = Int(key) {
                items[index] = apply(items[index], keys.dropFirst()) ?? .null
                return .array(items)
            }
            guard case .object(var object) = node else { return node }
            object[key] = apply(object[key] ?? .object([:]), keys.dropFirst())
            return .object(object)
        }
        return apply(tree, keys[...]) ?? .null
    }
}
