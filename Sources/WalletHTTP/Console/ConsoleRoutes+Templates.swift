import Foundation
import HTTPServer
import PassCompiler
import PassLint
import PassPreview
import WalletCore

/// Templates: the list, one template with its pictures, lint, history and roll-out, an upload that
/// is reviewed before it is made current, and rollback.
extension ConsoleRoutes {
    var templateRoutes: [Route] {
        [
            signed(.get, "/templates", "Templates", needs: .scope(.templatesRead)) { request, _, signed in
                try await templateList(signed, notice: request.query("notice"))
            },
            signed(.post, "/templates/upload", "Check an upload", needs: .scope(.templatesWrite), maxBodySize: Self.maxUploadBody, start: .inPool) { _, _, signed in try await review(signed) },
            signed(.post, "/order-templates/upload", "Upload an order template", needs: .scope(.templatesWrite), maxBodySize: Self.maxUploadBody, start: .inPool) { _, _, signed in
                try await uploadOrderTemplate(signed)
            },
            signed(.get, "/order-templates/:template", "An order template", needs: .scope(.templatesRead)) { _, context, signed in
                try await orderTemplateDetails(try context.parameters.require("template"), signed)
            },
            signed(.get, "/templates/:template", "A template", needs: .scope(.templatesRead)) { request, context, signed in
                try await templateDetails(try context.parameters.require("template"), signed, notice: request.query("notice"))
            },
            signed(.get, "/templates/:template/preview.png", "A template's picture", needs: .scope(.templatesRead), start: .inPool) { request, context, _ in
                try await templatePicture(try context.parameters.require("template"), request)
            },
            signed(.post, "/templates/:template/publish", "Make an upload current", needs: .scope(.templatesWrite), maxBodySize: Self.maxUploadBody, start: .inPool) { _, context, signed in
                try await publish(try context.parameters.require("template"), signed)
            },
            signed(.post, "/templates/:template/rollback", "Roll back", needs: .scope(.templatesWrite), start: .inPool) { _, context, signed in
                try await rollback(try context.parameters.require("template"), signed)
            },
        ]
    }

    private func templateList(_ signed: Signed, notice: String? = nil, error: String? = nil, status: HTTPStatus = .ok) async throws -> HTTPResponse {
        let statuses = try await templates.library.statuses()
        let rollouts = try await templates.rollouts()
        let rows = statuses.keys.sorted().map { name -> HTML in
            let (version, entry) = statuses[name]!
            let rollout = rollouts[name]
            let state: HTML
            switch entry {
            case .ready: state = Self.templateState(unavailableBecause: nil)
            case .unavailable(let reason): state = Self.templateState(unavailableBecause: reason)
            }
            return """
                <tr><th scope="row"><a href="/console/templates/\(name)">\(name)</a></th><td>\(version.map { "v\($0)" } ?? "—")</td>
                <td>\(ConsolePage.number(rollout?.passes ?? 0))</td><td>\(ConsolePage.number(rollout?.behind ?? 0))</td><td>\(state)</td></tr>
                """
        }
        let table: HTML = rows.isEmpty
            ? "<p class=\"empty\">No templates yet. Upload a template folder as a zip below, or start the server with <code>--templates DIR</code>.</p>"
            : """
                <div class="scroll"><table id="templates"><caption>Templates and their current versions</caption>
                <thead><tr><th scope="col">Template</th><th scope="col">Version</th><th scope="col">Passes</th><th scope="col">Behind</th><th scope="col">Status</th></tr></thead>
                <tbody>\(rows)</tbody></table></div>
                """
        return ConsolePage.page("Templates", section: "/console/templates", csrf: signed.csrf, role: signed.role, notice: notice, error: error, status: status, """
            \(table)
            \(signed.can(.templatesWrite) ? Self.uploadForm(signed.csrf) : .empty)
            \(try await orderTemplateSection(signed))
            """)
    }

    /// The order templates: each one's current version, which new orders are made from (an order
    /// keeps the version it was made with), and the form that uploads a new one.
    private func orderTemplateSection(_ signed: Signed) async throws -> HTML {
        let rows = try await orders.list().templates.map { template -> HTML in
            let state = Self.templateState(unavailableBecause: template.status == .ready ? nil : template.reason ?? "")
            return """
                <tr><th scope="row"><a href="/console/order-templates/\(template.name)">\(template.name)</a></th><td>v\(template.version)</td>
                <td>\(template.orderTypeIdentifier)</td><td>\(state)</td></tr>
                """
        }
        let table: HTML = rows.isEmpty
            ? "<p class=\"empty\">No order templates yet. Upload an order template folder (its <code>order.json</code> and images) as a zip below, or start the server with its folder under <code>orders/</code> of <code>--templates DIR</code>.</p>"
            : """
                <div class="scroll"><table id="order-templates"><caption>Order templates: new orders are made from the current version, and an order keeps the version it was made with</caption>
                <thead><tr><th scope="col">Order template</th><th scope="col">Version</th><th scope="col">Order type</th><th scope="col">Status</th></tr></thead>
                <tbody>\(rows)</tbody></table></div>
                """
        let form: HTML = signed.can(.templatesWrite)
            ? """
                <form id="order-upload" method="post" action="/console/order-templates/upload" enctype="multipart/form-data">
                \(ConsolePage.csrfField(signed.csrf))
                <label for="order-upload-name">Order template name</label>
                <input name="name" id="order-upload-name" required pattern="[A-Za-z0-9_.\\-]+" aria-describedby="order-upload-name-hint">
                <p class="hint" id="order-upload-name-hint">An existing name makes a new version of it, for the orders made from now on.</p>
                <label for="order-upload-archive">Order template folder as a zip</label>
                <input type="file" name="archive" id="order-upload-archive" accept=".zip" required>
                <button type="submit">Upload order template</button>
                </form>
                """
            : .empty
        return "<h2>Order templates</h2>\(table)\(form)"
    }

    /// A pass or order template's status cell: ready, or unavailable with the reason (`nil`: ready).
    private static func templateState(unavailableBecause reason: String?) -> HTML {
        guard let reason else { return "<span class=\"ok\">Ready</span>" }
        return "<span class=\"bad\">Unavailable</span> <span class=\"hint\">\(reason)</span>"
    }

    /// One order template: its current version, status and every version with the orders it signs
    /// (orders keep the version they were made from, so old versions stay in use).
    private func orderTemplateDetails(_ name: String, _ signed: Signed) async throws -> HTTPResponse {
        guard let details = try await orders.details(ofTemplate: name) else {
            return ConsolePage.page("No such order template", section: "/console/templates", csrf: signed.csrf, role: signed.role,
                                    error: "There is no order template \(name). Pick one from the list or upload it.", status: .notFound,
                                    "<p><a class=\"button quiet\" href=\"/console/templates\">All templates</a></p>")
        }
        let state = Self.templateState(unavailableBecause: details.status == .ready ? nil : details.reason ?? "")
        let rows = details.versions.map { version -> HTML in
            """
            <tr><th scope="row">v\(version.version)\(version.version == details.currentVersion ? " (current)" : "")</th>
            <td>\(ConsolePage.number(version.orders))</td><td>\(ConsolePage.time(version.storedAt))</td><td>\(version.storedBy)</td>
            <td><code>\(String(version.digest.prefix(12)))</code></td></tr>
            """
        }
        return ConsolePage.page("Order template \(name)", section: "/console/templates", csrf: signed.csrf, role: signed.role, """
            <dl class="facts">
            <dt>Current version</dt><dd id="current-version">version <data value="\(details.currentVersion)">\(details.currentVersion)</data></dd>
            <dt>Order type</dt><dd>\(details.orderTypeIdentifier)</dd>
            <dt>Status</dt><dd>\(state)</dd>
            </dl>
            <p><a class="button quiet" href="/console/orders?template=\(QueryComponent.escaped(name))">Its orders</a></p>
            <h2>Versions</h2>
            <div class="scroll"><table id="versions"><caption>Every version, newest first: new orders are made from the current one, and an order keeps the version it was made from</caption>
            <thead><tr><th scope="col">Version</th><th scope="col">Orders</th><th scope="col">Stored</th><th scope="col">By</th><th scope="col">Digest</th></tr></thead>
            <tbody>\(rows)</tbody></table></div>
            """)
    }

    /// Stores an uploaded order template as a new version (nothing to review: an order template is
    /// checked when an order is made from it), then back to the list, which says what happened.
    private func uploadOrderTemplate(_ signed: Signed) async throws -> HTTPResponse {
        guard let form = signed.form, let name = form["name"], !name.isEmpty, let archive = form.files["archive"], !archive.data.isEmpty else {
            return try await templateList(signed, error: "Choose an order template name and a zip file, then upload again.", status: .unprocessableContent)
        }
        let upload: OrderTemplateUpload
        do {
            try TemplateRoutes.checkName(name)
            let unpacked = try TemplateArchive.files(from: archive.data, document: "order.json")
            upload = try await orders.publish(name: name, files: unpacked.files, origin: signed.origin)
        } catch let error as HTTPError {
            return try await templateList(signed, error: "\(archive.fileName): \(error.detail)", status: .unprocessableContent)
        } catch OrderFailure.unusableTemplate(_, let reason) {
            return try await templateList(signed, error: "\(archive.fileName): \(reason). Nothing was stored.", status: .unprocessableContent)
        }
        let notice = !upload.changed
            ? "Nothing changed: the upload equals order template \(name) version \(upload.version)."
            : upload.version == 1
                ? "Order template \(name) created as version 1."
                : "Order template \(name) version \(upload.version) is current: new orders are made from it; orders already made keep theirs."
        return ConsolePage.redirect("/console/templates?notice=\(QueryComponent.escaped(notice))")
    }

    /// The upload form, for roles that may publish templates.
    private static func uploadForm(_ csrf: String) -> HTML {
        """
        <h2>Upload a template</h2>
        <form id="upload" method="post" action="/console/templates/upload" enctype="multipart/form-data">
        \(ConsolePage.csrfField(csrf))
        <label for="upload-name">Template name</label>
        <input name="name" id="upload-name" required pattern="[A-Za-z0-9_.\\-]+" aria-describedby="upload-name-hint">
        <p class="hint" id="upload-name-hint">An existing name makes a new version of it.</p>
        <label for="upload-archive">Template folder as a zip</label>
        <input type="file" name="archive" id="upload-archive" accept=".zip" required>
        <button type="submit">Check upload</button>
        </form>
        """
    }

    /// Lints the uploaded zip and shows the result, with the button that makes it current only
    /// when nothing in it stops a build.
    private func review(_ signed: Signed) async throws -> HTTPResponse {
        guard let form = signed.form, let name = form["name"], !name.isEmpty, let archive = form.files["archive"], !archive.data.isEmpty else {
            return try await templateList(signed, error: "Choose a template name and a zip file, then check the upload again.", status: .unprocessableContent)
        }
        do {
            try TemplateRoutes.checkName(name)
        } catch {
            return try await templateList(signed, error: error.detail, status: .unprocessableContent)
        }
        let unpacked: (files: [TemplateSourceFile], skipped: [String])
        do {
            unpacked = try TemplateArchive.files(from: archive.data)
        } catch {
            return try await templateList(signed, error: "\(archive.fileName): \(error.detail)", status: .unprocessableContent)
        }
        let prepared = templates.prepare(name: name, files: unpacked.files, skipped: unpacked.skipped)
        let errors = prepared.findings.filter(\.stopsBuild)
        var picture: HTML = .empty
        if let template = prepared.template,
           let contents = try? PassContents(template: template, record: template.sampleRecord, recordName: "the placeholders' names"),
           let preview = try? PassPreviewer.render(contents, options: PreviewOptions(side: .front, scale: 2)) {
            picture = "<img class=\"preview front\" src=\"data:image/png;base64,\(preview.data.base64EncodedString())\" alt=\"The uploaded \(name) drawn as Wallet shows its front, with each placeholder showing its name\" width=\"\(preview.pixelWidth / 2)\" height=\"\(preview.pixelHeight / 2)\">"
        }
        let action: HTML = errors.isEmpty
            ? """
                <form id="publish" method="post" action="/console/templates/\(name)/publish" enctype="multipart/form-data">
                \(ConsolePage.csrfField(signed.csrf))<input type="hidden" name="archive" value="\(archive.data.base64EncodedString())">
                <button type="submit">Make current</button> <a class="button quiet" href="/console/templates">Cancel</a>
                </form>
                """
            : "<p class=\"error\" role=\"alert\">\(errors.count) finding\(errors.count == 1 ? "" : "s") would give passes Wallet refuses, so this upload cannot be made current. Fix \(errors.count == 1 ? "it" : "them") in the folder and upload again.</p>"
        return ConsolePage.page("Review \(name)", section: "/console/templates", csrf: signed.csrf, role: signed.role, """
            <p>\(archive.fileName), \(unpacked.files.count) files\(unpacked.skipped.isEmpty ? "" : ", left out: \(unpacked.skipped.joined(separator: ", "))").</p>
            <div class="pictures">\(picture)</div>
            <h2>Lint</h2>
            \(Self.lintTable(prepared.findings))
            \(action)
            """)
    }

    private func publish(_ name: String, _ signed: Signed) async throws -> HTTPResponse {
        guard let encoded = signed.form?["archive"], let data = Data(base64Encoded: encoded) else {
            return try await templateList(signed, error: "The reviewed upload did not come back. Upload the zip again.", status: .unprocessableContent)
        }
        let unpacked = try TemplateArchive.files(from: data)
        let publication = try await templates.publish(name: name, files: unpacked.files, skipped: unpacked.skipped, origin: signed.origin)
        switch publication {
        case .refused(let findings):
            return ConsolePage.page("Review \(name)", section: "/console/templates", csrf: signed.csrf, role: signed.role,
                                    error: "The upload was refused: it would give passes Wallet refuses. Nothing was stored.", status: .unprocessableContent,
                                    Self.lintTable(findings))
        case .published(let save, _, _, let passes):
            let notice: String
            switch save {
            case .unchanged: notice = "Nothing changed: the upload equals version \(save.current.version)."
            case .created: notice = "Template \(name) created as version 1."
            case .newVersion: notice = "Version \(save.current.version) is current; it is rolling out to \(passes) pass\(passes == 1 ? "" : "es")."
            }
            return ConsolePage.redirect("/console/templates/\(name)?notice=\(QueryComponent.escaped(notice))")
        }
    }

    private func rollback(_ name: String, _ signed: Signed) async throws -> HTTPResponse {
        guard let text = signed.form?["version"], let version = Int64(text) else {
            return try await templateDetails(name, signed, error: "Choose the version to make current again.")
        }
        guard let publication = try await templates.rollback(name: name, to: version, origin: signed.origin) else {
            return try await templateDetails(name, signed, error: "Template \(name) has no version \(version).")
        }
        if case .refused = publication {
            return try await templateDetails(name, signed, error: "Version \(version) has lint errors today, so it cannot be made current.")
        }
        return ConsolePage.redirect("/console/templates/\(name)?notice=\(QueryComponent.escaped("Version \(version) is current again, as a new version."))")
    }

    private func templateDetails(_ name: String, _ signed: Signed, notice: String? = nil, error: String? = nil) async throws -> HTTPResponse {
        guard let history = try await templates.history(name) else {
            return ConsolePage.page("No such template", section: "/console/templates", csrf: signed.csrf, role: signed.role,
                                    error: "There is no template \(name). Pick one from the list or upload it.", status: .notFound,
                                    "<p><a class=\"button quiet\" href=\"/console/templates\">All templates</a></p>")
        }
        let (current, versions, rollout) = (history.current, history.versions, history.rollout)
        let findings = try await templates.currentFindings(name) ?? []
        let outbox = try await passes.outboxStats()
        let counters = pushWorker.counters
        let advanced = rollout.passes - rollout.behind
        let eta = pushWorker.rate.map { "\(Int((Double(outbox.queued + outbox.inFlight) / Double($0)).rounded(.up))) s" } ?? "as fast as APNs answers"
        let versionRows = versions.reversed().map { version -> HTML in
            """
            <tr><th scope="row">v\(version.version)\(version.version == current ? " (current)" : "")</th><td>\(ConsolePage.time(version.uploadedAt))</td>
            <td>\(version.uploadedBy)</td><td>\(version.restores.map { "restores v\($0)" } ?? "")</td><td><code>\(String(version.digest.prefix(12)))</code></td></tr>
            """
        }
        let options = versions.filter { $0.version != current }.reversed().map { "<option value=\"\($0.version)\">v\($0.version)</option>" as HTML }
        let rollback: HTML = !signed.can(.templatesWrite) ? .empty : options.isEmpty ? "<p class=\"hint\">There is only one version, so there is nothing to roll back to.</p>" : """
            <form id="rollback" method="post" action="/console/templates/\(name)/rollback">
            \(ConsolePage.csrfField(signed.csrf))
            <label for="rollback-version">Make an older version current again</label>
            <select name="version" id="rollback-version">\(options)</select>
            <button type="submit">Roll back</button>
            </form>
            """
        return ConsolePage.page("Template \(name)", section: "/console/templates", csrf: signed.csrf, role: signed.role, notice: notice, error: error, """
            <p>Current version: <strong id="current-version">version <data value="\(current)">\(current)</data></strong></p>
            <div class="pictures">
            <img class="preview front" src="/console/templates/\(name)/preview.png?side=front&amp;v=\(current)" alt="Template \(name), version \(current): the front, each placeholder showing its name" width="375">
            <img class="preview back" src="/console/templates/\(name)/preview.png?side=back&amp;v=\(current)" alt="Template \(name), version \(current): the back" width="375">
            </div>
            <section id="rollout" aria-labelledby="rollout-title"><h2 id="rollout-title">Roll-out of v\(current)</h2>
            <dl class="facts">
            <dt>Passes on v\(current)</dt><dd>\(ConsolePage.number(advanced)) of \(ConsolePage.number(rollout.passes))</dd>
            <dt>Pushes waiting</dt><dd>\(ConsolePage.number(outbox.queued + outbox.inFlight))</dd>
            <dt>Pushes sent</dt><dd>\(ConsolePage.number(counters.sent))</dd>
            <dt>Pushes failed</dt><dd>\(ConsolePage.number(counters.failures.values.reduce(0, +)))</dd>
            <dt>Time left</dt><dd>\(outbox.queued + outbox.inFlight == 0 ? "done" : eta)</dd>
            </dl></section>
            <h2>Lint of v\(current)</h2>
            \(Self.lintTable(findings))
            <h2>Versions</h2>
            <div class="scroll"><table id="versions"><caption>Every version, newest first</caption>
            <thead><tr><th scope="col">Version</th><th scope="col">Uploaded</th><th scope="col">By</th><th scope="col">Note</th><th scope="col">Digest</th></tr></thead>
            <tbody>\(versionRows)</tbody></table></div>
            \(rollback)
            """)
    }

    private func templatePicture(_ name: String, _ request: HTTPRequest) async throws -> HTTPResponse {
        let side = PreviewOptions.Side(rawValue: request.query("side") ?? "front") ?? .front
        guard let preview = try await previews.picture(template: name, record: nil, options: PreviewOptions(side: side, scale: 2)) else {
            return ConsolePage.document("Not found", status: .notFound, "<main id=\"main\"><h1>Not found</h1></main>")
        }
        var response = HTTPResponse.bytes(preview.data, contentType: "image/png")
        ConsolePage.secure(&response)
        return response
    }

    /// Lint findings as the CLI prints them: Before | After | What this changes, then which rule
    /// and where. With no findings the table says so in its one row.
    static func lintTable(_ findings: [Finding]) -> HTML {
        let rows = LintReport.sorted(findings).map { finding -> HTML in
            """
            <tr class="\(finding.severity.rawValue)"><td>\(finding.before)</td><td>\(finding.after)</td><td>\(finding.effect)</td>
            <td><span class="severity">\(finding.severity.rawValue)</span> <code>\(finding.rule)</code><br><span class="hint">\(finding.location)</span></td></tr>
            """
        }
        let body: HTML = rows.isEmpty
            ? "<tr><td colspan=\"4\" class=\"empty\">No findings: Wallet accepts it and it follows the design rules lint checks.</td></tr>"
            : rows.joined
        return """
            <div class="scroll"><table class="lint"><caption>Lint findings, most severe first</caption>
            <thead><tr><th scope="col">Before</th><th scope="col">After</th><th scope="col">What this changes</th><th scope="col">Finding</th></tr></thead>
            <tbody>\(body)</tbody></table></div>
            """
    }
}
