import Foundation
import PasswrightTesting
import Testing

/// `passwright issue` against a served child: the file is uploaded as a bulk job, followed to its end,
/// and its outcome written; a bad line makes the exit status 1 and is named.
@Suite("issue", .serialized)
struct IssueCommandTests {
    static let adminToken = "issue-admin-token-0123456789abcdef"

    func cli(_ arguments: [String], _ served: ServeChild) async throws -> ProcessResult {
        try await CLI.run(arguments + ["--server", served.baseURL], environment: ["PASSWRIGHT_ADMIN_TOKEN": Self.adminToken])
    }

    @Test("a file with a bad line issues the rest, names the line, writes the results and exits 1")
    func uploadFollowAndResults() async throws {
        try await withLoyaltyServer(adminToken: Self.adminToken) { served, scratch in
            var text = ""
            for number in 1...300 {
                text += number == 150
                    ? "{\"serialNumber\":\"C-150\",\"points\":1}\n"
                    : "{\"serialNumber\":\"C-\(number)\",\"member\":{\"id\":\"M\",\"name\":\"Member \(number)\"},\"points\":\(number),\"tier\":\"Gold\"}\n"
            }
            let input = scratch.appendingPathComponent("cards.jsonl")
            try Data(text.utf8).write(to: input)
            let results = scratch.appendingPathComponent("results.csv")
            let run = try await cli(["issue", "--template", "loyalty", "--results", results.path, input.path], served)
            #expect(run.status == 1, "one line failed: \(run)")
            #expect(run.err.contains("line 150: data.member"), "\(run.err)")
            #expect(run.err.contains("completed: 299 issued, 1 failed of 300"), "\(run.err)")
            let rows = try String(contentsOf: results, encoding: .utf8).components(separatedBy: "\r\n").filter { !$0.isEmpty }
            #expect(rows.count == 301 && rows[0] == "line,serialNumber,state,downloadURL,bundlePart,errors", "\(rows.prefix(3))")
            #expect(rows[150].hasPrefix("150,C-150,failed,,,") && rows[1].hasPrefix("1,C-1,issued,https://passes.example.test/passes/"))

            // Everything valid: exit 0; --no-wait prints only the job's id.
            let good = scratch.appendingPathComponent("more.jsonl")
            try Data("{\"serialNumber\":\"D-1\",\"member\":{\"id\":\"M\",\"name\":\"D\"},\"points\":1,\"tier\":\"Gold\"}\n".utf8).write(to: good)
            let ok = try await cli(["issue", "--template", "loyalty", good.path], served)
            #expect(ok.status == 0 && ok.err.contains("1 issued, 0 failed of 1"), "\(ok)")
            let queued = try await cli(["issue", "--template", "loyalty", "--format", "jsonl", "--no-wait", good.path], served)
            #expect(queued.status == 0 && queued.out.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("job_"), "\(queued)")

            let missing = try await cli(["issue", input.path], served)
            #expect(missing.status == 64 && missing.err.contains("--template"), "\(missing)")
            let unknown = try await cli(["issue", "--template", "nope", good.path], served)
            #expect(unknown.status == 1 && unknown.err.contains("422"), "\(unknown)")
        }
    }
}
