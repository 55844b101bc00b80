import Foundation
import HTTPServer
import PassModel
import WalletCore

/// Writes the OpenAPI 3.1 document of a set of routes: each route's path, parameters, body, auth and
/// answers come from the route value, and everything written once — info, security schemes, schemas —
/// from the `openapi-base.json` resource. So a route cannot be served without being described, and
/// the problem responses are not written out again for every route.
enum OpenAPIGenerator {
    /// Path parameters are short in route patterns (the patterns label metrics and logs) and spelled
    /// out in the document, as Apple's Wallet web service documentation names them.
    static let documentedNames = [
        "passType": "passTypeIdentifier", "serial": "serialNumber", "device": "deviceLibraryIdentifier",
        "orderType": "orderTypeIdentifier", "orderId": "orderIdentifier", "orderDevice": "deviceIdentifier",
    ]

    /// The resource every generated document starts from.
    static func base() throws -> JSONObject {
        guard let url = Bundle.module.url(forResource: "openapi-base", withExtension: "json", subdirectory: "Resources") else {
            throw ServiceError.invalid("the package resource Resources/openapi-base.json is missing from this build")
        }
        guard case .object(let object) = try JSONValue.parse(Data(contentsOf: url)) else {
            throw ServiceError.invalid("Resources/openapi-base.json is not a JSON object")
        }
        return object
    }

    /// The document for `routes` (routes without an operation id are left out), on top of `base`.
    static func document(for routes: [Route], base: JSONObject, maxParameterLength: Int) -> JSONValue {
        var paths = JSONObject()
        for route in routes {
            guard let operationID = route.operationID else { continue }
            let path = openAPIPath(route.path)
            var item: JSONObject
            if case .object(let existing)? = paths[path] { item = existing } else { item = JSONObject() }
            item[route.method.rawValue.lowercased()] = .object(operation(route, id: operationID, maxParameterLength: maxParameterLength))
            paths[path] = .object(item)
        }
        var document = base
        document["paths"] = .object(paths)
        return .object(document)
    }

    /// `/wallet/v1/passes/:passType/:serial` as `/wallet/v1/passes/{passTypeIdentifier}/{serialNumber}`.
    static func openAPIPath(_ pattern: String) -> String {
        let segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map { segment -> String in
            guard segment.hasPrefix(":") else { return String(segment) }
            return "{\(documentedName(String(segment.dropFirst())))}"
        }
        return "/" + segments.joined(separator: "/")
    }

    static func documentedName(_ parameter: String) -> String {
        documentedNames[parameter] ?? parameter
    }

    /// Every status a route answers: its own, and those the router and server give for it.
    static func responses(of route: Route) -> [RouteResponse] {
        var responses = route.responses
        func addUnlessListed(_ response: RouteResponse) {
            if !responses.contains(where: { $0.status == response.status }) { responses.append(response) }
        }
        if !route.pathParameters.isEmpty { addUnlessListed(.problem(.badRequest, "Bad path parameter")) }
        if let auth = route.auth, auth.scheme != nil { addUnlessListed(.problem(.unauthorized, auth.refusal)) }
        if let auth = route.auth, !auth.scopes.isEmpty {
            addUnlessListed(.problem(.forbidden, "The key lacks the scope \(auth.scopes.joined(separator: ", ")), or may not use this template"))
        }
        if route.requestBody != nil { addUnlessListed(.problem(.contentTooLarge, "Body too large")) }
        if let body = route.requestBody, body.checksContentType { addUnlessListed(.problem(.unsupportedMediaType, "Not \(body.contentType)")) }
        return responses.sorted { $0.status.code < $1.status.code }
    }

    private static func operation(_ route: Route, id: String, maxParameterLength: Int) -> JSONObject {
        var operation: JSONObject = ["operationId": .string(id), "summary": .string(route.summary)]
        if let scheme = route.auth?.scheme {
            operation["security"] = .array([.object([scheme: .array((route.auth?.scopes ?? []).map(JSONValue.string))])])
        }
        var parameters: [JSONValue] = route.pathParameters.map { name in
            .object([
                "name": .string(documentedName(name)), "in": .string("path"), "required": .bool(true),
                "schema": .object(["type": .string("string"), "maxLength": .number(Double(maxParameterLength))]),
            ])
        }
        parameters += route.parameters.map { parameter in
            var object: JSONObject = ["name": .string(parameter.name), "in": .string(parameter.location.rawValue), "schema": reference(parameter.schema)]
            if parameter.required { object["required"] = .bool(true) }
            return .object(object)
        }
        if !parameters.isEmpty { operation["parameters"] = .array(parameters) }
        if let body = route.requestBody {
            operation["requestBody"] = .object(["required": .bool(body.required), "content": content([body])])
        }
        var responses = JSONObject()
        for response in Self.responses(of: route) {
            var object: JSONObject = ["description": .string(response.description)]
            if !response.bodies.isEmpty { object["content"] = content(response.bodies) }
            responses[String(response.status.code)] = .object(object)
        }
        operation["responses"] = .object(responses)
        return operation
    }

    private static func content(_ bodies: [RouteBody]) -> JSONValue {
        var content = JSONObject()
        for body in bodies where content[body.contentType] == nil { content[body.contentType] = .object(["schema": reference(body.schema)]) }
        return .object(content)
    }

    private static func reference(_ schema: String) -> JSONValue {
        .object(["$ref": .string("#/components/schemas/\(schema)")])
    }
}
