#!/usr/bin/env python3
"""A stand-in for Apple's APNs provider API: real HTTP/2 over TLS on 127.0.0.1, for Passwright's tests.

It requires a client certificate issued by --ca (like APNs requires the Pass Type ID certificate),
advertises SETTINGS_MAX_CONCURRENT_STREAMS, records every request as one JSON line, and answers each
device token as a rules file says (default: 200 with an apns-id), with the bodies APNs sends.

    apns_standin.py --ca ca.pem --cert server.pem --key server.key --record requests.jsonl \
        [--port 0] [--max-concurrent-streams 100] [--rules rules.json] [--delay-ms 0] [--answer-early]

When ready it prints `PORT <n>` on stdout. The rules file maps a device token to an answer:
    {"<token>": "BadDeviceToken", "<token2>": {"reason": "Unregistered", "timestamp": 1700000000000}}
A reason alone picks APNs's status for it; {"status": 400, "reason": "..."} sets both. "Shutdown" also
sends GOAWAY and closes the connection once its other streams are answered. The file is read again
whenever it changes (replace it atomically), so a test can turn a token's 429 into a 200.

Each record line holds: time, connection (1, 2, … per TLS connection), stream, method, path, authority,
headers (without pseudo-headers), body, client_subject (e.g. `UID=pass.x,CN=...,O=...`) and
open_streams (requests open on that connection when this one's headers arrived, this one included),
limit_acknowledged (whether the client had then acknowledged our SETTINGS_MAX_CONCURRENT_STREAMS; before
that, RFC 9113 lets it open more streams than the limit, since it cannot have seen it yet) and
answered_early (whether the answer went out before the request's body had arrived).

--answer-early answers each request as soon as its HEADERS arrive, before reading its body, then resets
the stream with RST_STREAM(NO_ERROR): a complete response that RFC 9113 section 8.1 lets a server send
without the body. So that the body cannot be on its way already, the stand-in also advertises an initial
stream window of 0 (the client may send no DATA); only a stream opened before the client has seen that
setting can have its body with its headers; that one is answered as usual and its record says
answered_early false.

Requires Python 3.9+ and the `h2` package (pip install h2).
"""

import argparse
import asyncio
import itertools
import json
import os
import signal
import ssl
import sys
import time
import uuid

import h2.config
import h2.connection
import h2.errors
import h2.events
import h2.exceptions
import h2.settings

# The status APNs answers with each reason (Apple: "Handling notification responses from APNs").
STATUS_FOR_REASON = {
    "BadCollapseId": 400, "BadDeviceToken": 400, "BadExpirationDate": 400, "BadMessageId": 400,
    "BadPriority": 400, "BadTopic": 400, "DeviceTokenNotForTopic": 400, "DuplicateHeaders": 400,
    "IdleTimeout": 400, "InvalidPushType": 400, "MissingDeviceToken": 400, "MissingTopic": 400,
    "PayloadEmpty": 400, "TopicDisallowed": 400,
    "BadCertificate": 403, "BadCertificateEnvironment": 403, "Forbidden": 403,
    "BadPath": 404, "MethodNotAllowed": 405,
    "ExpiredToken": 410, "Unregistered": 410,
    "PayloadTooLarge": 413, "TooManyRequests": 429,
    "InternalServerError": 500, "ServiceUnavailable": 503, "Shutdown": 503,
}

SHORT_NAMES = {
    "commonName": "CN", "organizationName": "O", "organizationalUnitName": "OU",
    "countryName": "C", "userId": "UID", "localityName": "L", "stateOrProvinceName": "ST",
}


def parse_rules(path):
    """Turns the rules file into {token: (status, body dict)}; fails loudly on a reason it doesn't know."""
    if path is None:
        return {}
    with open(path, encoding="utf-8") as file:
        raw = json.load(file)
    rules = {}
    for token, rule in raw.items():
        if isinstance(rule, str):
            rule = {"reason": rule}
        reason = rule["reason"]
        status = rule.get("status", STATUS_FOR_REASON.get(reason))
        if status is None:
            raise SystemExit(f"rules: unknown reason {reason!r} for token {token}; give a status too")
        body = {"reason": reason}
        if "timestamp" in rule:
            body["timestamp"] = rule["timestamp"]
        rules[token] = (int(status), body)
    return rules


def subject_of(ssl_object):
    """The verified client certificate's subject in certificate order, e.g. `UID=pass.x,CN=...,O=...`."""
    certificate = ssl_object.getpeercert() if ssl_object else None
    if not certificate:
        return None
    return ",".join(
        f"{SHORT_NAMES.get(name, name)}={value}"
        for rdn in certificate.get("subject", ())
        for name, value in rdn
    )


class Server:
    def __init__(self, options):
        self.options = options
        self.rules_version = None
        self.rules = {}
        self.connection_ids = itertools.count(1)
        self.record = open(options.record, "a", encoding="utf-8") if options.record else None

    def write_record(self, entry):
        if self.record:
            self.record.write(json.dumps(entry, sort_keys=True) + "\n")
            self.record.flush()

    def current_rules(self):
        """The rules, read again when the file's modification time, inode or size changed."""
        if self.options.rules is None:
            return self.rules
        info = os.stat(self.options.rules)
        version = (info.st_mtime_ns, info.st_ino, info.st_size)
        if version != self.rules_version:
            self.rules = parse_rules(self.options.rules)
            self.rules_version = version
        return self.rules

    def answer_for(self, path):
        token = path.rsplit("/", 1)[-1] if path.startswith("/3/device/") else None
        if token is None:
            return 404, {"reason": "BadPath"}
        return self.current_rules().get(token, (200, None))


class Connection(asyncio.Protocol):
    """One TLS connection speaking HTTP/2 as an APNs server."""

    def __init__(self, server):
        self.server = server
        self.transport = None
        self.id = next(server.connection_ids)
        self.h2 = h2.connection.H2Connection(
            config=h2.config.H2Configuration(client_side=False, header_encoding="utf-8")
        )
        self.requests = {}  # stream id -> {"headers": [...], "body": bytearray, "open": n, "acked": bool}
        self.pending = set()  # streams complete on the client side, not yet answered
        self.draining = False
        self.highest_stream = 0
        self.subject = None
        self.limit_acknowledged = False  # the client has acknowledged our MAX_CONCURRENT_STREAMS

    def connection_made(self, transport):
        self.transport = transport
        self.subject = subject_of(transport.get_extra_info("ssl_object"))
        self.h2.initiate_connection()
        settings = {h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS: self.server.options.max_concurrent_streams}
        if self.server.options.answer_early:
            settings[h2.settings.SettingCodes.INITIAL_WINDOW_SIZE] = 0
        self.h2.update_settings(settings)
        self.flush()

    def data_received(self, data):
        try:
            events = self.h2.receive_data(data)
        except h2.exceptions.ProtocolError as error:
            print(f"apns-standin: connection {self.id}: protocol error: {error}", file=sys.stderr, flush=True)
            self.flush()
            self.transport.close()
            return
        # Streams whose request ended in this batch (h2 has processed every frame of it already): with
        # --answer-early, these are answered as usual, body and all.
        ended = {event.stream_id for event in events if isinstance(event, h2.events.StreamEnded)}
        for event in events:
            if isinstance(event, h2.events.RequestReceived):
                self.requests[event.stream_id] = {
                    "headers": event.headers, "body": bytearray(),
                    "open": len(self.requests) + 1, "acked": self.limit_acknowledged,
                }
                self.highest_stream = max(self.highest_stream, event.stream_id)
                if self.server.options.answer_early and event.stream_id not in ended:
                    self.answer_early(event.stream_id)
            elif isinstance(event, h2.events.DataReceived):
                if event.stream_id in self.requests:
                    self.requests[event.stream_id]["body"] += event.data
                self.h2.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                self.request_complete(event.stream_id)
            elif isinstance(event, h2.events.StreamReset):
                self.requests.pop(event.stream_id, None)
                self.pending.discard(event.stream_id)
            elif isinstance(event, h2.events.SettingsAcknowledged):
                if h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS in event.changed_settings:
                    self.limit_acknowledged = True
            elif isinstance(event, h2.events.ConnectionTerminated):
                self.transport.close()
        self.flush()

    def answer_early(self, stream_id):
        """Answers a request whose body is still to come, then resets its stream (the answer is complete)."""
        self.respond(stream_id, answered_early=True)
        self.h2.reset_stream(stream_id, error_code=h2.errors.ErrorCodes.NO_ERROR)

    def request_complete(self, stream_id):
        self.pending.add(stream_id)
        delay = self.server.options.delay_ms / 1000
        if delay > 0:
            asyncio.get_running_loop().call_later(delay, self.respond, stream_id)
        else:
            self.respond(stream_id)

    def respond(self, stream_id, answered_early=False):
        request = self.requests.pop(stream_id, None)
        if request is None or self.transport.is_closing():
            self.pending.discard(stream_id)
            return
        headers = dict(request["headers"])
        path = headers.get(":path", "")
        self.server.write_record({
            "time": time.time(),
            "connection": self.id,
            "stream": stream_id,
            "method": headers.get(":method"),
            "path": path,
            "authority": headers.get(":authority"),
            "headers": {name: value for name, value in request["headers"] if not name.startswith(":")},
            "body": request["body"].decode("utf-8", "replace"),
            "client_subject": self.subject,
            "open_streams": request["open"],
            "limit_acknowledged": request["acked"],
            "answered_early": answered_early,
        })
        status, body = self.server.answer_for(path)
        apns_id = headers.get("apns-id") or str(uuid.uuid4()).upper()
        response_headers = [(":status", str(status)), ("apns-id", apns_id)]
        if body is None:
            self.h2.send_headers(stream_id, response_headers, end_stream=True)
        else:
            payload = json.dumps(body).encode()
            response_headers += [("content-type", "application/json"), ("content-length", str(len(payload)))]
            self.h2.send_headers(stream_id, response_headers)
            self.h2.send_data(stream_id, payload, end_stream=True)
            if body["reason"] == "Shutdown":
                self.draining = True
        self.pending.discard(stream_id)
        if self.draining and not self.pending:
            self.h2.close_connection(
                error_code=h2.errors.ErrorCodes.NO_ERROR,
                last_stream_id=self.highest_stream,
                additional_data=b'{"reason":"Shutdown"}',
            )
            self.flush()
            self.transport.close()
            return
        self.flush()

    def flush(self):
        data = self.h2.data_to_send()
        if data and not self.transport.is_closing():
            self.transport.write(data)


def tls_context(options):
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(options.cert, options.key)
    context.load_verify_locations(options.ca)
    context.verify_mode = ssl.CERT_REQUIRED
    context.set_alpn_protocols(["h2"])
    return context


async def main():
    parser = argparse.ArgumentParser(description="APNs HTTP/2 stand-in for tests")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--ca", required=True, help="CA that must have issued the client certificate")
    parser.add_argument("--cert", required=True, help="server certificate (PEM)")
    parser.add_argument("--key", required=True, help="server private key (PEM, unencrypted)")
    parser.add_argument("--record", help="append one JSON line per request to this file")
    parser.add_argument("--rules", help="JSON file mapping device tokens to answers")
    parser.add_argument("--max-concurrent-streams", type=int, default=100)
    parser.add_argument("--delay-ms", type=int, default=0, help="hold every answer this long")
    parser.add_argument("--answer-early", action="store_true",
                        help="answer on HEADERS, before the body, then RST_STREAM(NO_ERROR)")
    options = parser.parse_args()

    server = Server(options)
    server.current_rules()  # a bad rules file fails at start, not at the first request
    loop = asyncio.get_running_loop()
    listener = await loop.create_server(
        lambda: Connection(server), "127.0.0.1", options.port, ssl=tls_context(options), reuse_address=True
    )
    port = listener.sockets[0].getsockname()[1]
    print(f"PORT {port}", flush=True)
    async with listener:
        await listener.serve_forever()


if __name__ == "__main__":
    # A parent's threads may block SIGTERM, and spawned children inherit the mask: unblock it so that
    # the test harness can always stop the stand-in.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
