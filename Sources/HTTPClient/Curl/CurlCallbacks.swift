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
        // Returning less than was given makes libcurl end the transfer with CURLE_WRITE_ERROR.
        guard easy.response.body.count + length <= easy.maxResponseBody else {
            easy.bodyOverflowed = true
            return 0
        }
        easy.response.receiveBody(UnsafeRawBufferPointer(start: data, count: length))
    }
    return length
}

/// `CURLOPT_HEADERFUNCTION`: called once per header line, which ``ResponseProgress`` reads.
func curlReceiveHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userdata: UnsafeMutableRawPointer?) -> Int {
    let length = size * count
    guard let userdata, let data else { return 0 }
    let easy = Unmanaged<CurlEasy>.fromOpaque(userdata).takeUnretainedValue()
    easy.response.receiveHeaderLine(String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self))
    return length
}
