internal import CCurl
import Locking
import Foundation
import Synchronization

/// Owns one libcurl multi handle, where the client's HTTP/2 connection lives, and the one thread that
/// drives it with `curl_multi_poll`. Other threads only queue transfers and call `curl_multi_wakeup`,
/// the one multi call libcurl allows from any thread.
///
/// `@unchecked Sendable`: `multi` is used by the loop thread alone (plus the thread-safe
/// `curl_multi_wakeup`); everything shared sits in the `Locked` queue or the `Atomic`.
final class CurlMultiLoop: @unchecked Sendable {
    private struct Queue {
        var submitted: [CurlTransfer] = []
        var stopping = false
        var stopped = false
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let multi: UnsafeMutableRawPointer
    private let queue = Locked(Queue())
    private let connections = Atomic<Int>(0)

    /// Starts the loop thread; `maxConcurrentStreams` caps streams on a connection (the server's
    /// SETTINGS may lower it further, which libcurl honours).
    init(configuration: HTTPClientConfiguration) throws(HTTPClientError) {
        try CurlGlobal.ensureReady()
        guard let multi = curl_multi_init() else {
            throw .unsupportedLibcurl(reason: "curl_multi_init returned no handle (out of memory?)")
        }
        self.multi = multi
        try CurlGate.check(passwright_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX), doing: "CURLMOPT_PIPELINING")
        try CurlGate.check(passwright_curl_multi_setopt_long(multi, CURLMOPT_MAX_CONCURRENT_STREAMS, configuration.maxConcurrentStreams), doing: "CURLMOPT_MAX_CONCURRENT_STREAMS")
        // At most this many connections per host: when their streams are all busy, transfers queue for a
        // free stream instead of opening more connections (APNs treats connection churn as abuse).
        try CurlGate.check(passwright_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maxHostConnections), doing: "CURLMOPT_MAX_HOST_CONNECTIONS")
        let thread = Thread { [self] in run() }
        thread.name = configuration.threadName
        thread.start()
    }

    /// Connections opened so far, summed from each finished transfer's `CURLINFO_NUM_CONNECTS`.
    var connectionsOpened: Int { connections.load(ordering: .relaxed) }

    /// Queues a transfer for the loop; `false` once the loop is stopping. Only the first transfer
    /// queued since the loop last took the queue wakes it: the later ones ride on that wake-up, which
    /// under a fan-out saves a write and a wake per push.
    func submit(_ transfer: CurlTransfer) -> Bool {
        let (accepted, wake) = queue.withLock { queue in
            guard !queue.stopping else { return (false, false) }
            queue.submitted.append(transfer)
            return (true, queue.submitted.count == 1)
        }
        if wake { curl_multi_wakeup(multi) }
        return accepted
    }

    /// Refuses new transfers; the loop finishes those in flight, closes the connection and ends.
    func stop() {
        queue.withLock { $0.stopping = true }
        curl_multi_wakeup(multi)
    }

    /// Stops and waits until the loop thread has finished every transfer and closed the connection.
    func stopAndWait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = queue.withLock { queue in
                queue.stopping = true
                if queue.stopped { return true }
                queue.stopWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() } else { curl_multi_wakeup(multi) }
        }
    }

    private func run() {
        var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
        while true {
            let (incoming, stopping) = queue.withLock { queue in
                defer { queue.submitted = [] }
                return (queue.submitted, queue.stopping)
            }
            for transfer in incoming {
                do {
                    try CurlGate.check(curl_multi_add_handle(multi, transfer.easy.handle), doing: "curl_multi_add_handle")
                    active[transfer.easy.handle] = transfer
                } catch {
                    transfer.fail(error)
                }
            }
            if stopping && active.isEmpty { break }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            finishCompleted(&active)
            // Sleeps until a socket is ready, libcurl's next timeout, or a wakeup (capped at 1 s).
            curl_multi_poll(multi, nil, 0, 1000, nil)
        }
        let waiters = queue.withLock { queue in
            queue.stopped = true
            defer { queue.stopWaiters = [] }
            return queue.stopWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func finishCompleted(_ active: inout [UnsafeMutableRawPointer: CurlTransfer]) {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                  let transfer = active.removeValue(forKey: handle) else { continue }
            // Read the result before removing the handle: the message belongs to libcurl.
            let code = message.pointee.data.result
            curl_multi_remove_handle(multi, handle)
            connections.add(transfer.easy.connectionsOpened, ordering: .relaxed)
            transfer.finish(code)
        }
    }

    deinit {
        // The loop thread has ended (it holds `self` until then), so no handle is still attached.
        curl_multi_cleanup(multi)
    }
}
