#!/usr/bin/env python3
"""A webhook receiver for Passwright's tests: a real HTTP server on 127.0.0.1 that verifies every
delivery with the Standard Webhooks reference library (PyPI `standardwebhooks`) and records it.

    webhook_receiver.py --secrets secrets.json --rules rules.json --record requests.jsonl [--port 0]

When ready it prints `PORT <n>` on stdout. `secrets.json` is a JSON array of `whsec_...` secrets, read
again for each delivery; a delivery verifies when any of them verifies it (as a receiver mid-rotation
does). `rules.json`, also read for each delivery, may hold:
    {"fail_first": 2}      answer 500 to the first two deliveries, then 200
    {"status": 410}        answer this status to every delivery
    {"delay_ms": 500}      wait this long before answering (the delivery is recorded on receipt)
Each delivery appends one JSON line to the record: its webhook-id, timestamp, the number of
signatures, whether one verified, the event type, the status answered and the body.
"""
import argparse
import errno
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

lock = threading.Lock()
seen = {"count": 0}


def read_json(path, default):
    try:
        with open(path) as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return default


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--secrets", required=True)
    parser.add_argument("--rules", required=True)
    parser.add_argument("--record", required=True)
    options = parser.parse_args()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            headers = {name.lower(): value for name, value in self.headers.items()}
            verified = False
            for secret in read_json(options.secrets, []):
                try:
                    Webhook(secret).verify(body, headers)
                    verified = True
                    break
                except WebhookVerificationError:
                    continue
            rules = read_json(options.rules, {})
            with lock:
                seen["count"] += 1
                number = seen["count"]
            status = 200
            if number <= rules.get("fail_first", 0):
                status = 500
            if "status" in rules:
                status = rules["status"]
            try:
                event = json.loads(body)
            except ValueError:
                event = {}
            record = {
                "id": headers.get("webhook-id"), "timestamp": headers.get("webhook-timestamp"),
                "signatures": len(headers.get("webhook-signature", "").split()), "verified": verified,
                "type": event.get("type"), "status": status, "body": body.decode("utf-8", "replace"),
            }
            with lock:
                with open(options.record, "a") as handle:
                    handle.write(json.dumps(record) + "\n")
            # Recorded on receipt, answered after the delay: a test can act while the sender waits.
            if rules.get("delay_ms"):
                time.sleep(rules["delay_ms"] / 1000)
            answer = b'{"ok":true}' if status < 300 else b'{"error":"test"}'
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, format, *args):
            pass

    ThreadingHTTPServer.allow_reuse_address = True
    # A receiver started again on its old port (a test of one that was down) may find the port taken
    # for a moment: while nothing listened there, any client on this machine could get it as its own
    # ephemeral port, the server's retries included (TCP's self-connect). It frees when that
    # connection ends, so wait for it rather than fail.
    deadline = time.monotonic() + (10 if options.port else 0)
    while True:
        try:
            server = ThreadingHTTPServer(("127.0.0.1", options.port), Handler)
            break
        except OSError as error:
            if error.errno != errno.EADDRINUSE or time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    print(f"PORT {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
