#!/usr/bin/env python3
"""Crash safety of `passwright serve`: SIGKILL under a steady write load, restart, lose nothing.

    crash.py --bin .build/debug/passwright [--rounds 20] [--engine sqlite|postgres] [--threads 4]
             [--passes 40] [--push-lease 5] [--push-wait 20] [--seed N] [--bulk-records 20000]

Starts the APNs stand-in (Tests/Support/apns-standin) and `passwright serve` with push on against it,
issues --passes passes, then runs --rounds rounds. In each round several writer threads send device
registrations (a new device id and push token each) and admin point updates over HTTP, each thread
owning its own passes so every pass's updates are sequential; every write answered 2xx is recorded
with what it wrote. 0.5 to 2 s into the round the server gets SIGKILL. While it is down, SQLite's
`PRAGMA integrity_check` must answer ok; then it is restarted on the same data and must answer
/healthz, list every acknowledged registration (list serials per device) and serve every pass with
its last acknowledged points in pass.json (fetched with the pass's token through the Wallet route),
or with a later write whose answer the kill cut off (it may or may not have committed).

At the end the load is stopped and every device whose registration was acknowledged before its
pass's last acknowledged update started must have received a push recorded by the stand-in after
that start (the update commits between its start and its acknowledgement; a push may legitimately
go out before the answer reaches the client). Pushes claimed by a killed instance wait for their
lease before the restarted one takes them over: the server runs with `--push-lease` (default 5 s
here, 60 s in production), and --push-wait must exceed it.

Then a bulk job: --bulk-records records are uploaded with `passwright issue --no-wait`; once about
a third are issued the server gets SIGKILL, and the restarted server must finish the job with every
record issued exactly once: the job counts them all issued and none failed (a record issued twice would
fail as an existing serial), and the database holds exactly that many of its passes.

CRASH_KEEP=1 keeps the work folder (server log, stand-in record) of a failed run.

Prints `crash: R rounds, K kills, W acknowledged writes, L lost, integrity ok I/R, pushes D/N
delivered` and exits 1 on any loss, integrity failure, failed restart or missing push.
"""

import argparse
import http.client
import io
import json
import os
import random
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import zipfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PASS_TYPE = "pass.dev.passwright.loyalty"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Failure(Exception):
    """A check that failed; the message says which and how."""


def request(port, method, path, body=None, headers=None, timeout=10):
    """One request on a fresh connection; returns (status, body bytes)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = json.dumps(body).encode() if body is not None else None
        all_headers = {"Content-Type": "application/json"} if data is not None else {}
        all_headers.update(headers or {})
        connection.request(method, path, data, all_headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


class Server:
    """`passwright serve` on SQLite or PostgreSQL, push on, against the stand-in; killable and restartable."""

    def __init__(self, options, work, database, apns_url, ca_file, admin):
        self.options, self.work, self.database = options, work, database
        self.apns_url, self.ca_file, self.admin = apns_url, ca_file, admin
        self.process = None
        self.port = None
        self.log = open(os.path.join(work, "server.log"), "ab")

    def start(self):
        self.port = free_port()
        env = dict(os.environ, PASSWRIGHT_ADMIN_TOKEN=self.admin)
        self.process = subprocess.Popen([
            self.options.bin, "serve", "--port", str(self.port), "--database", self.database,
            "--templates", os.path.join(ROOT, "Templates"), "--identities", os.path.join(self.work, "ids"),
            "--data-dir", os.path.join(self.work, "data"), "--log-level", "warning",
            "--push", "on", "--apns-url", self.apns_url, "--apns-ca-file", self.ca_file,
            "--push-lease", str(self.options.push_lease), "--quiet-hours", "off", "--notification-spacing", "0",
            "--job-lease", "2",
        ], env=env, stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.time() + 30
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise Failure(f"the server exited with {self.process.returncode} at start; see {self.log.name}")
            try:
                if request(self.port, "GET", "/healthz", timeout=2)[0] == 200:
                    return
            except (OSError, http.client.HTTPException):
                pass
            time.sleep(0.05)
        raise Failure("the server did not answer /healthz within 30 s of its start")

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Counter:
    """1, 2, 3, … across threads: unique device ids and point values, so every write is told apart."""

    def __init__(self):
        self.lock = threading.Lock()
        self.last = 0

    def __next__(self):
        with self.lock:
            self.last += 1
            return self.last


class Ledger:
    """What the writers were told was done, and what may have been done (answers the kill cut off)."""

    def __init__(self, passes, admin):
        self.admin = admin
        self.lock = threading.Lock()
        self.tokens = {serial: token for serial, token in passes}
        # serial -> last acknowledged points, its update's start time, and values sent since without an answer.
        self.points = {serial: 0 for serial, _ in passes}
        self.update_started = {}
        self.uncertain = {serial: [] for serial, _ in passes}
        # (device, serial, push token, acknowledged at) of every acknowledged registration.
        self.registrations = []
        self.acknowledged = 0


def writer(port, ledger, serials, stop, counter, rng):
    """Sends registrations and updates for `serials` (this thread's own) until `stop` is set."""
    while not stop.is_set():
        serial = rng.choice(serials)
        token = ledger.tokens[serial]
        if rng.random() < 0.5:
            device = f"crash-{next(counter)}-{secrets.token_hex(4)}"
            push_token = secrets.token_hex(32)
            try:
                status, _ = request(port, "POST", f"/wallet/v1/devices/{device}/registrations/{PASS_TYPE}/{serial}",
                                    {"pushToken": push_token}, {"Authorization": f"ApplePass {token}"}, timeout=5)
            except (OSError, http.client.HTTPException):
                time.sleep(0.02)
                continue
            if status != 201:
                raise Failure(f"registering the new device {device} for {serial} answered {status}")
            with ledger.lock:
                ledger.registrations.append((device, serial, push_token, time.time()))
                ledger.acknowledged += 1
        else:
            value = next(counter)
            started = time.time()
            with ledger.lock:
                ledger.uncertain[serial].append(value)
            try:
                status, body = request(port, "PATCH", f"/api/v1/passes/{PASS_TYPE}/{serial}", {"data": {"points": value}},
                                       {"Authorization": f"Bearer {ledger.admin}"}, timeout=5)
            except (OSError, http.client.HTTPException):
                time.sleep(0.02)
                continue
            if status != 200:
                raise Failure(f"updating {serial} to {value} points answered {status}: {body[:200]!r}")
            with ledger.lock:
                ledger.points[serial] = value
                ledger.update_started[serial] = started
                ledger.uncertain[serial] = []
                ledger.acknowledged += 1


def served_points(port, serial, token):
    """The points field of the pass.json the Wallet route serves for `serial`."""
    status, body = request(port, "GET", f"/wallet/v1/passes/{PASS_TYPE}/{serial}", headers={"Authorization": f"ApplePass {token}"})
    if status != 200:
        raise Failure(f"GET pass {serial} after restart answered {status}")
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        pass_json = json.loads(archive.read("pass.json"))
    for field in pass_json["storeCard"]["primaryFields"]:
        if field["key"] == "points":
            return int(float(str(field["value"]).replace(",", "")))
    raise Failure(f"pass {serial}'s pass.json has no points field")


def check_registrations(port, registrations):
    """Returns the acknowledged registrations the server does not list."""
    lost = []
    for device, serial, _, _ in registrations:
        status, body = request(port, "GET", f"/wallet/v1/devices/{device}/registrations/{PASS_TYPE}")
        if status != 200 or serial not in json.loads(body)["serialNumbers"]:
            lost.append(f"registration {device} -> {serial} (list serials answered {status})")
    return lost


def check_passes(port, ledger):
    """Returns passes not serving their last acknowledged points (nor a value sent after it); adopts
    a served unacknowledged value as the new baseline, since it is now known to be committed."""
    lost = []
    for serial, token in ledger.tokens.items():
        served = served_points(port, serial, token)
        if served == ledger.points[serial]:
            pass
        elif served in ledger.uncertain[serial]:
            ledger.points[serial] = served
        else:
            lost.append(f"pass {serial} serves {served} points; last acknowledged {ledger.points[serial]}, "
                        f"unanswered since {ledger.uncertain[serial]}")
        ledger.uncertain[serial] = []
    return lost


def integrity(db_path):
    connection = sqlite3.connect(db_path)
    try:
        rows = connection.execute("PRAGMA integrity_check").fetchall()
    finally:
        connection.close()
    return rows == [("ok",)], rows


def pushes_after(record_path):
    """device token -> times the stand-in answered a push to it."""
    times = {}
    if os.path.exists(record_path):
        with open(record_path, encoding="utf-8") as file:
            for line in file:
                if not line.endswith("\n"):
                    break  # a line still being written
                entry = json.loads(line)
                if entry.get("path", "").startswith("/3/device/"):
                    times.setdefault(entry["path"].rsplit("/", 1)[-1], []).append(entry["time"])
    return times


def owed_pushes(ledger):
    """(device, push token, since): devices registered before their pass's last acknowledged update."""
    owed = []
    for device, serial, push_token, registered in ledger.registrations:
        started = ledger.update_started.get(serial)
        if started is not None and registered < started:
            owed.append((device, push_token, started))
    return owed


def make_standin_certificate(work, ids):
    """A TLS server certificate for 127.0.0.1 issued by the dev root CA, with the real openssl CLI."""
    folder = os.path.join(work, "standin")
    os.makedirs(folder, mode=0o700)
    key, csr, cert, ext = (os.path.join(folder, name) for name in ("server-key.pem", "server.csr", "server.pem", "server.ext"))
    os.close(os.open(key, os.O_CREAT | os.O_WRONLY, 0o600))
    with open(ext, "w") as file:
        file.write("basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n"
                   "extendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n")
    subprocess.run(["openssl", "req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                    "-subj", "/CN=localhost/O=APNs stand-in", "-out", csr], check=True, capture_output=True)
    subprocess.run(["openssl", "x509", "-req", "-in", csr, "-CA", os.path.join(ids, "dev-ca", "root.pem"),
                    "-CAkey", os.path.join(ids, "dev-ca", "root-key.pem"), "-set_serial", "0x" + secrets.token_hex(16),
                    "-days", "2", "-sha256", "-extfile", ext, "-out", cert], check=True, capture_output=True)
    return cert, key


def bulk_job_survives_a_kill(options, work, server, admin, db_path):
    """Uploads --bulk-records records, kills the server a third of the way through, restarts it; returns problems."""
    count = options.bulk_records
    path = os.path.join(work, "bulk.jsonl")
    with open(path, "w") as out:
        for i in range(count):
            out.write(json.dumps({"serialNumber": f"bulk-{i:06d}", "member": {"id": f"B-{i}", "name": f"Bulk {i}"},
                                  "points": i, "tier": "Gold"}) + "\n")
    env = dict(os.environ, PASSWRIGHT_ADMIN_TOKEN=admin)
    upload = subprocess.run([options.bin, "issue", "--server", f"http://127.0.0.1:{server.port}", "--template", "loyalty",
                             "--no-wait", path], env=env, capture_output=True, text=True, timeout=600)
    if upload.returncode != 0:
        return [f"passwright issue --no-wait exited {upload.returncode}: {upload.stderr[-500:]}"]
    job = upload.stdout.strip().splitlines()[-1]
    headers = {"Authorization": f"Bearer {admin}"}

    def state():
        status, body = request(server.port, "GET", f"/api/v1/jobs/{job}", headers=headers)
        if status != 200:
            raise Failure(f"GET /api/v1/jobs/{job} answered {status}: {body[:200]!r}")
        return json.loads(body)

    deadline = time.time() + 600
    while (current := state())["issued"] < count // 3:
        if time.time() > deadline or current["state"] != "issuing":
            return [f"the job did not reach a third of its records: {current}"]
        time.sleep(0.05)
    at_kill = current["issued"]
    server.kill()
    server.start()
    while (current := state())["state"] not in ("completed", "rejected"):
        if time.time() > deadline:
            return [f"the job did not finish after the restart: {current}"]
        time.sleep(0.2)
    problems = []
    if current["issued"] != count or current["failed"] != 0:
        problems.append(f"the resumed job issued {current['issued']} and failed {current['failed']} of {count}")
    if db_path is not None:
        with sqlite3.connect(db_path) as db:
            stored = db.execute("SELECT count(*) FROM passes WHERE serial_number LIKE 'bulk-%'").fetchone()[0]
        if stored != count:
            problems.append(f"the database holds {stored} passes of the job, not {count}")
    print(f"crash: bulk job of {count:,} records killed at {at_kill:,} issued, resumed to {current['issued']:,} issued, "
          f"{current['failed']} failed", file=sys.stderr)
    return problems


def run(options, work, cleanups):
    ids = os.path.join(work, "ids")
    subprocess.run([options.bin, "certs", "dev", "--out", ids, "--pass-type-id", PASS_TYPE], check=True, stdout=subprocess.DEVNULL)
    root = os.path.join(ids, "dev-ca", "root.pem")
    cert, key = make_standin_certificate(work, ids)
    record = os.path.join(work, "apns-requests.jsonl")
    standin = subprocess.Popen([sys.executable, os.path.join(ROOT, "Tests/Support/apns-standin/apns_standin.py"),
                                "--ca", root, "--cert", cert, "--key", key, "--record", record, "--port", "0"],
                               stdout=subprocess.PIPE, stderr=open(os.path.join(work, "standin.log"), "wb"), text=True)
    cleanups.append(lambda: (standin.kill(), standin.wait()))
    line = standin.stdout.readline()
    if not line.startswith("PORT "):
        raise Failure(f"the APNs stand-in did not start: {line!r}; see {work}/standin.log")
    apns_url = f"https://127.0.0.1:{line.split()[1]}"

    db_path = None
    if options.engine == "postgres":
        pg_dir = tempfile.mkdtemp(prefix="passwright-crash-pg.", dir="/tmp")
        postgres = os.path.join(ROOT, "scripts", "postgres.sh")
        database = subprocess.run([postgres, "start", pg_dir, str(free_port())], check=True, capture_output=True, text=True).stdout.strip()
        cleanups.append(lambda: (subprocess.run([postgres, "stop", pg_dir], capture_output=True), shutil.rmtree(pg_dir, ignore_errors=True)))
    else:
        db_path = os.path.join(work, "data", "crash.sqlite")
        database = f"sqlite:{db_path}"

    admin = secrets.token_urlsafe(30)
    server = Server(options, work, database, apns_url, root, admin)
    cleanups.append(server.stop)
    server.start()

    passes = []
    for i in range(options.passes):
        serial, token = f"crash-{i:04d}", secrets.token_hex(20)
        status, body = request(server.port, "POST", "/api/v1/passes", {"template": "loyalty", "serialNumber": serial, "data": {
            "authenticationToken": token, "member": {"id": f"M-{i}", "name": f"Member {i}"}, "points": 0, "tier": "Gold"}},
            {"Authorization": f"Bearer {admin}"})
        if status != 201:
            raise Failure(f"issuing {serial} answered {status}: {body[:200]!r}")
        passes.append((serial, token))
    ledger = Ledger(passes, admin)

    rng = random.Random(options.seed)
    shared_counter = Counter()

    lost, integrity_ok, kills, checked = [], 0, 0, 0
    serials = [serial for serial, _ in passes]
    for round_number in range(1, options.rounds + 1):
        stop = threading.Event()
        errors = []

        def work_thread(own, seed):
            try:
                writer(server.port, ledger, own, stop, shared_counter, random.Random(seed))
            except Failure as failure:
                errors.append(str(failure))
        threads = [threading.Thread(target=work_thread, args=(serials[t::options.threads], rng.random()))
                   for t in range(options.threads)]
        round_start = len(ledger.registrations)
        for thread in threads:
            thread.start()
        time.sleep(rng.uniform(0.5, 2.0))
        server.kill()
        kills += 1
        stop.set()
        for thread in threads:
            thread.join()
        if errors:
            raise Failure(f"round {round_number}: a write failed before the kill: {errors[0]}")
        if db_path is not None:
            ok, rows = integrity(db_path)
            if ok:
                integrity_ok += 1
            else:
                lost.append(f"round {round_number}: PRAGMA integrity_check answered {rows[:5]}")
        server.start()
        new = ledger.registrations[round_start:]
        round_lost = check_registrations(server.port, new) + check_passes(server.port, ledger)
        checked += len(new)
        lost += [f"round {round_number}: {item}" for item in round_lost]
        print(f"round {round_number}: {len(new)} new registrations, {ledger.acknowledged} acknowledged writes in all, "
              f"{len(round_lost)} lost", file=sys.stderr)

    # Everything again on the last instance: earlier rounds' writes must have survived later kills too.
    lost += [f"final: {item}" for item in check_registrations(server.port, ledger.registrations)]
    lost += [f"final: {item}" for item in check_passes(server.port, ledger)]

    owed = owed_pushes(ledger)
    deadline = time.time() + options.push_wait
    while True:
        received = pushes_after(record)
        missing = [(device, token, since) for device, token, since in owed
                   if not any(t > since for t in received.get(token, ()))]
        if not missing or time.time() > deadline:
            break
        time.sleep(0.5)
    if options.bulk_records > 0:
        lost += [f"bulk: {item}" for item in bulk_job_survives_a_kill(options, work, server, admin, db_path)]
    integrity_text = f"integrity ok {integrity_ok}/{options.rounds}" if db_path else "integrity n/a (postgres)"
    print(f"crash ({options.engine}): {options.rounds} rounds, {kills} kills, {ledger.acknowledged:,} acknowledged writes, "
          f"{len(lost)} lost, {integrity_text}, pushes {len(owed) - len(missing)}/{len(owed)} delivered")
    problems = list(lost)
    problems += [f"no push to device {device} after its pass's last acknowledged update started at {since:.3f}"
                 for device, _, since in missing[:20]]
    if len(missing) > 20:
        problems.append(f"... and {len(missing) - 20} more devices without a push")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="the passwright binary")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--engine", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--passes", type=int, default=40)
    parser.add_argument("--push-lease", type=int, default=5, help="the server's --push-lease, in seconds")
    parser.add_argument("--push-wait", type=float, default=20, help="seconds to wait for owed pushes at the end")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--bulk-records", type=int, default=20000, help="records of the bulk job killed midway (0: none)")
    options = parser.parse_args()
    options.bin = os.path.abspath(options.bin)

    work = tempfile.mkdtemp(prefix="passwright-crash.", dir="/tmp")
    cleanups = []
    status = 0
    try:
        lost = run(options, work, cleanups)
        if lost:
            print(f"crash: FAILED, {len(lost)} problems:", file=sys.stderr)
            for item in lost:
                print(f"  {item}", file=sys.stderr)
            status = 1
    except Failure as failure:
        print(f"crash: FAILED: {failure}", file=sys.stderr)
        status = 1
    finally:
        for cleanup in reversed(cleanups):
            try:
                cleanup()
            except Exception:
                pass
        if status == 0 or os.environ.get("CRASH_KEEP") is None:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"crash: kept {work}", file=sys.stderr)
    sys.exit(status)


if __name__ == "__main__":
    main()
