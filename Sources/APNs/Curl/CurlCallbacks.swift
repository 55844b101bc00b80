internal import CCurl
import Foundation

// libcurl's callbacks, as global functions (a closure at top level would be main-actor isolated and
// crash when libcurl calls it from the loop thread). `userdata` is the transfer's `CurlEasy`, kept alive
// by the multi loop while the transfer runs, so it is taken unretained.

/// `CURLOPT_WRITEFUNCTION`: appends a piece of the response body.
func curlWriteBody(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userdata: UnsafeMutableRawPointer?) -> Int {
    let length = size * count
    guard let userdata else { return 0 }
    let easy = Unmanaged<CurlEasy>.fromOpaque(userdata).takeUnretainedValue()
    if let data, length > 0 {
        easy.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
    }
    return length
}

/// `CURLOPT_HEADERFUNCTION`: called once per header line. Keeps `apns-id`; a new status line (libcurl
/// retrying the request on a fresh connection) discards what an earlier attempt delivered.
func curlReceiveHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userdata: UnsafeMutableRawPointer?) -> Int {
    let length = size * count
    guard let userdata, let data else { return 0 }
    let easy = Unmanaged<CurlEasy>.fromOpaque(userdata).takeUnretainedValue()
    let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    if line.hasPrefix("HTTP/") {
        easy.apnsID = nil
        easy.body = []
    } else if let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == "apns-id" {
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        easy.apnsID = value.isEmpty ? nil : value
    }
    return length
}
