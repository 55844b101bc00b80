import Foundation
import HTTPServer
import PassCompiler
import PassModel
import PassPreview
import WalletCore

/// Passes: search, and one pass with its pictures, its data as a form, its devices and history.
extension ConsoleRoutes {
    static let pageSize = 50

    var passRoutes: [Route] {
        [
            signed(.get, "/passes", "Find passes", needs: .scope(.passesRead)) { request, _, signed in try await passList(request, signed) },
            signed(.get, "/passes/:passType/:serial", "A pass", needs: .scope(.passesRead)) { request, context, signed in
                try await passDetails(try context.parameters.passKey(), signed, notice: request.query("notice"))
            },
            signed(.post, "/passes/:passType/:serial", "Save a pass", needs: .scope(.passesWrite)) { _, context, signed in
                try await save(try context.parameters.passKey(), signed)
            },
            signed(.get, "/passes/:passType/:serial/preview.png", "A pass's picture", needs: .scope(.passesRead), start: .inPool) { request, context, _ in
                try await passPicture(try context.parameters.passKey(), request)
            },
        ]
    }

    private func passList(_ request: HTTPRequest, _ signed: Signed) async throws -> HTTPResponse {
        let text = request.query("q").map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        let template = request.query("template").flatMap { $0.isEmpty ? nil : $0 }
        let after = request.query("after").flatMap(Self.cursor)
        let page = try await passes.search(text: text, template: template, after: after, limit: Self.pageSize)
        let names = try await templates.library.statuses().keys.sorted()
        let options = ([HTML("<option value=\"\">All templates</option>")] + names.map { name in
            name == template ? HTML("<option value=\"\(name)\" selected>\(name)</option>") : HTML("<option value=\"\(name)\">\(name)</option>")
        })
        let rows = page.passes.map { result -> HTML in
            """
            <tr><th scope="row"><a href="/console/passes/\(Self.path(result.key))">\(result.key.serialNumber)</a></th>
            <td>\(result.key.passTypeIdentifier)</td><td>\(result.template) v\(result.templateVersion)</td>
            <td>\(ConsolePage.time(result.updatedAt))</td><td>\(result.voided ? "voided" : "")</td></tr>
            """
        }
        var query = [("q", text ?? ""), ("template", template ?? "")].filter { !$0.1.isEmpty }.map { "\($0.0)=\(QueryComponent.escaped($0.1))" }
        let next: HTML
        if let cursor = page.next {
            query.append("after=\(QueryComponent.escaped(cursor.passTypeIdentifier + "\n" + cursor.serialNumber))")
            next = "<p><a rel=\"next\" class=\"next button quiet\" href=\"/console/passes?\(query.joined(separator: "&"))\">Next \(Self.pageSize)</a></p>"
        } else {
            next = .empty
        }
        let table: HTML = rows.isEmpty
            ? (text == nil && template == nil
                ? "<p class=\"empty\">No passes yet. Issue one with <code>POST /api/v1/passes</code> or <code>passwright build</code>.</p>"
                : "<p class=\"empty\">No pass matches. Try the start of a serial number, a value from the pass's data, or all templates.</p>")
            : """
                <div class="scroll"><table id="passes"><caption>Passes\(after == nil ? "" : " (continued)")</caption>
                <thead><tr><th scope="col">Serial</th><th scope="col">Pass type</th><th scope="col">Template</th><th scope="col">Updated</th><th scope="col">State</th></tr></thead>
                <tbody>\(rows)</tbody></table></div>
                \(next)
                """
        return ConsolePage.page("Passes", section: "/console/passes", csrf: signed.csrf, role: signed.role, """
            <form id="search" method="get" action="/console/passes" role="search">
            <label for="q">Serial number or data value</label>
            <input type="search" name="q" id="q" value="\(text ?? "")" aria-describedby="q-hint">
            <p class="hint" id="q-hint">The start of a serial number, or any text in a pass's data (a member's name, an e-mail address).</p>
            <label for="template">Template</label>
            <select name="template" id="template">\(options)</select>
            <button type="submit">Search</button>
            </form>
            \(table)
            """)
    }

    func passDetails(_ key: PassKey, _ signed: Signed, notice: String? = nil, error: String? = nil, status: HTTPStatus = .ok,
                     submitted: ConsoleForm? = nil) async throws -> HTTPResponse {
        guard let pass = try await passes.pass(key) else {
            return ConsolePage.page("No such pass", section: "/console/passes", csrf: signed.csrf, role: signed.role,
                                    error: "There is no pass \(key.serialNumber) of \(key.passTypeIdentifier). Search for it by serial number or data.",
                                    status: .notFound, "<p><a class=\"button quiet\" href=\"/console/passes\">Find passes</a></p>")
        }
        let data = try PassService.value(pass.data)
        let overrides = try PassService.object(pass.overrides)
        let placeholders = (try? await templates.library.entry(pass.template, version: pass.templateVersion).compiler?.template.placeholders) ?? []
        let fields = placeholders.filter { $0 != "serialNumber" && $0 != "authenticationToken" }.map { path -> HTML in
            let value = submitted?["data.\(path)"] ?? Self.lookup(path, in: data).map(Self.text) ?? ""
            let id = "field-\(path)"
            return "<div class=\"field\"><label for=\"\(id)\">\(path)</label><input name=\"data.\(path)\" id=\"\(id)\" value=\"\(value)\"></div>"
        }
        let raw = submitted?["raw"] ?? PassService.text(data)
        func override(_ key: String) -> String { submitted?[key] ?? overrides[key].map(PassService.text) ?? "" }
        let devices = try await passes.devices(for: key)
        let deviceRows = devices.map { device -> HTML in
            let answer: String
            switch (device.lastPushStatus, device.lastPushReason) {
            case (let status?, let reason?): answer = "\(status) \(reason)"
            case (let status?, nil): answer = "\(status)"
            case (nil, let reason?): answer = reason
            case (nil, nil): answer = "—"
            }
            return """
                <tr><th scope="row"><code>\(String(device.deviceLibraryIdentifier.prefix(12)))…</code></th>
                <td>\(ConsolePage.time(device.registeredAt))</td><td>\(ConsolePage.time(device.lastPushAt))</td>
                <td class="answer">\(answer)</td><td>\(device.pushQueued ? "queued" : "no")</td></tr>
                """
        }
        let history = try await passes.history(for: key)
        let historyRows = history.map { update -> HTML in
            "<tr><td>\(ConsolePage.time(update.changedAt))</td><td>\(String(update.updateTag))</td><td>\(update.changes.joined(separator: ", "))</td><td>\(update.source)</td></tr>"
        }
        let tag = String(pass.updateTag)
        let base = "/console/passes/\(Self.path(key))"
        let erasedAt = try await passes.erasedAt(key)
        let editor: HTML = erasedAt != nil ? "<pre id=\"data\" class=\"data\">\(raw)</pre><p class=\"hint\">An erased pass takes no further change.</p>"
            : signed.can(.passesWrite) ? """
        <form id="edit" method="post" action="\(base)">
        \(ConsolePage.csrfField(signed.csrf))
        <fieldset><legend>Fields the template uses</legend>\(fields.isEmpty ? "<p class=\"hint\">The template has no placeholders; edit the data as JSON below.</p>" : fields.joined)</fieldset>
        <label for="raw">All data as JSON</label>
        <textarea name="raw" id="raw" rows="6" spellcheck="false" aria-describedby="raw-hint">\(raw)</textarea>
        <p class="hint" id="raw-hint">Edit this instead of the fields above to add or remove keys; the fields are used while this equals the stored data.</p>
        <fieldset><legend>Where and when it shows</legend>
        <label for="locations">Locations (JSON array, empty for the template's)</label>
        <textarea name="locations" id="locations" rows="3" spellcheck="false">\(override("locations"))</textarea>
        <label for="relevantDates">Relevant dates (JSON array, empty for the template's)</label>
        <textarea name="relevantDates" id="relevantDates" rows="3" spellcheck="false">\(override("relevantDates"))</textarea>
        </fieldset>
        <div class="check"><input type="checkbox" name="voided" id="voided" value="on"\(HTML(raw: pass.voided ? " checked" : ""))><label for="voided">Voided (Wallet shows it as no longer valid)</label></div>
        <button type="submit">Save</button>
        </form>
        """ : "<pre id=\"data\" class=\"data\">\(raw)</pre><p class=\"hint\">Your role can read this pass but not change it.</p>"
        return ConsolePage.page("Pass \(key.serialNumber)", section: "/console/passes", csrf: signed.csrf, role: signed.role, notice: notice, error: error, status: status, """
            <p>\(key.passTypeIdentifier) · template <a href="/console/templates/\(pass.template)">\(pass.template)</a> v\(pass.templateVersion) · update tag \(tag)\(pass.voided ? " · voided" : "")</p>
            <div class="pictures">
            <img class="preview front" src="\(base)/preview.png?side=front&amp;tag=\(tag)" alt="Pass \(key.serialNumber) as its holder sees the front now" width="375">
            <img class="preview back" src="\(base)/preview.png?side=back&amp;tag=\(tag)" alt="Pass \(key.serialNumber): the back" width="375">
            </div>
            <h2>Data</h2>
            \(editor)
            <h2>Devices</h2>
            \(deviceRows.isEmpty ? "<p class=\"empty\">No device has this pass yet. When a holder adds it to Wallet, the device registers and shows here.</p>" : """
                <div class="scroll"><table id="devices"><caption>Devices with this pass and the last push to each</caption>
                <thead><tr><th scope="col">Device</th><th scope="col">Registered</th><th scope="col">Last push</th><th scope="col">APNs answer</th><th scope="col">Push queued</th></tr></thead>
                <tbody>\(deviceRows)</tbody></table></div>
                """ as HTML)
            <h2>History</h2>
            \(historyRows.isEmpty ? "<p class=\"empty\">No changes since the pass was issued.</p>" : """
                <div class="scroll"><table id="history"><caption>Changes, newest first</caption>
                <thead><tr><th scope="col">When</th><th scope="col">Update tag</th><th scope="col">What changed</th><th scope="col">By</th></tr></thead>
                <tbody>\(historyRows)</tbody></table></div>
                """ as HTML)
            \(passDataRights(key, erasedAt: erasedAt, signed))
            """)
    }

    /// Saves through ``PassService/update(_:_:source:)``: the same merge, validation and pushes as
    /// `PATCH /api/v1/passes/{type}/{serial}`.
    private func save(_ key: PassKey, _ signed: Signed) async throws -> HTTPResponse {
        guard let form = signed.form, let pass = try await passes.pass(key) else { return try await passDetails(key, signed) }
        let current = try PassService.value(pass.data)
        var problems: [String] = []
        var data: JSONValue?
        // The JSON box wins when it says something other than the stored data; else the fields do.
        let edited = form["raw"].flatMap { raw in raw.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : raw }
        let parsed = edited.flatMap { try? JSONValue.parse(Data($0.utf8)) }
        if let edited, parsed != current {
            do {
                guard case .object(let object)? = parsed else {
                    _ = try JSONValue.parse(Data(edited.utf8))
                    throw ServiceError.invalid("must be a JSON object")
                }
                // A whole object replaces the data: keys left out are removed.
                var patch = object
                if case .object(let old) = current { for key in old.keys where object[key] == nil { patch[key] = .null } }
                data = .object(patch)
            } catch {
                problems.append("All data as JSON: not a JSON object (\(error))")
            }
        } else {
            var patch = JSONObject()
            for (name, value) in form.fields where name.hasPrefix("data.") {
                let path = String(name.dropFirst("data.".count))
                let old = Self.lookup(path, in: current)
                guard old.map(Self.text) != value, !(old == nil && value.isEmpty) else { continue }
                let typed: JSONValue = if case .number? = old, let number = Double(value) { .number(number) } else { .string(value) }
                Self.set(typed, at: path, in: &patch)
            }
            if !patch.isEmpty { data = .object(patch) }
        }
        var overrides = JSONObject()
        let stored = try PassService.object(pass.overrides)
        for name in ["locations", "relevantDates"] {
            let text = (form[name] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            let old = stored[name].map(PassService.text) ?? ""
            guard text != old else { continue }
            if text.isEmpty { overrides[name] = .null; continue }
            do {
                overrides[name] = try JSONValue.parse(Data(text.utf8))
            } catch {
                problems.append("\(name): not JSON (\(error))")
            }
        }
        let voided = form["voided"] == "on"
        guard problems.isEmpty else {
            return try await passDetails(key, signed, error: "Nothing was saved: " + problems.joined(separator: "; "), status: .unprocessableContent, submitted: form)
        }
        let change = PassService.Change(data: data, overrides: overrides, voided: voided == pass.voided ? nil : voided)
        guard change.data != nil || !change.overrides.isEmpty || change.voided != nil else {
            return ConsolePage.redirect("/console/passes/\(Self.path(key))?notice=\(QueryComponent.escaped("Nothing changed."))")
        }
        do {
            let outcome = try await passes.update(key, change, origin: signed.origin)
            let notice: String
            if let held = outcome.heldUntil {
                notice = "Saved. The notification is held until \(held.formatted(.iso8601)) (quiet hours or spacing)."
            } else {
                notice = outcome.changed ? "Saved: \(outcome.pushesQueued) push\(outcome.pushesQueued == 1 ? "" : "es") queued." : "Nothing changed."
            }
            return ConsolePage.redirect("/console/passes/\(Self.path(key))?notice=\(QueryComponent.escaped(notice))")
        } catch let error as PassCompilerError {
            return try await passDetails(key, signed, error: "Nothing was saved: \(error)", status: .unprocessableContent, submitted: form)
        }
    }

    private func passPicture(_ key: PassKey, _ request: HTTPRequest) async throws -> HTTPResponse {
        guard let pass = try await passes.pass(key) else {
            return ConsolePage.document("Not found", status: .notFound, "<main id=\"main\"><h1>Not found</h1></main>")
        }
        let side = PreviewOptions.Side(rawValue: request.query("side") ?? "front") ?? .front
        let picture = try await previews.picture(of: pass, options: PreviewOptions(side: side, scale: 2))
        var response = HTTPResponse.bytes(picture.data, contentType: "image/png")
        ConsolePage.secure(&response)
        response.headers["Cache-Control"] = "private, max-age=3600"
        return response
    }

    /// `pass.type/SERIAL` with each part escaped for a path.
    static func path(_ key: PassKey) -> String {
        path(key.passTypeIdentifier, key.serialNumber)
    }

    /// Path segments joined by `/`, each with everything but RFC 3986's unreserved characters
    /// escaped: stricter than a path needs, so no `&` or `'` of a serial number reaches an HTML attribute.
    static func path(_ segments: String...) -> String {
        segments.map(QueryComponent.escaped).joined(separator: "/")
    }

    static func cursor(_ text: String) -> PassKey? {
        let parts = text.split(separator: "\n", maxSplits: 1).map(String.init)
        return parts.count == 2 ? PassKey(passTypeIdentifier: parts[0], serialNumber: parts[1]) : nil
    }

    static func text(_ value: JSONValue) -> String {
        if case .string(let string) = value { return string }
        return PassService.text(value)
    }

    /// The value at a dotted record path (`member.name`), as placeholders read it.
    static func lookup(_ path: String, in record: JSONValue) -> JSONValue? {
        if case .object(let object) = record, let flat = object[path] { return flat }
        var current = record
        for segment in path.split(separator: ".") {
            guard case .object(let object) = current, let next = object[String(segment)] else { return nil }
            current = next
        }
        return current
    }

    /// Sets `value` at a dotted path in a merge patch, making the objects on the way.
    static func set(_ value: JSONValue, at path: String, in patch: inout JSONObject) {
        let segments = path.split(separator: ".").map(String.init)
        guard let first = segments.first else { return }
        if segments.count == 1 { patch[first] = value; return }
        var child: JSONObject
        if case .object(let existing)? = patch[first] { child = existing } else { child = JSONObject() }
        set(value, at: segments.dropFirst().joined(separator: "."), in: &child)
        patch[first] = .object(child)
    }
}
