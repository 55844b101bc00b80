#!/usr/bin/env python3
"""Database outages against `passwright serve`: every failure gets its true status, writes resume
by themselves, nothing acknowledged is lost.

    outage.py --bin .build/debug/passwright [--scenario postgres|sqlite-full|all] [--outage 5]

postgres: a throwaway PostgreSQL (scripts/postgres.sh) under a steady load of issues and updates is
stopped for --outage seconds and started again on the same data. During the outage every write must
answer 503 with Retry-After (never 500) and /readyz 503 naming the database; writes must succeed
again within 10 s of its return; at the end every acknowledged issue and update must be stored.

sqlite-full (root only: it mounts a tmpfs): the SQLite database lives on a 3 MiB tmpfs; a filler
file takes the space left, writes must answer 507 naming the database file and /readyz 503 "full";
once the filler is deleted, writes and /readyz must recover by themselves.

OUTAGE_KEEP=1 keeps the work folder (server logs) of a failed run.
"""

import argparse
import http.client
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PASS_TYPE = "pass.dev.passwright.loyalty"


class Failure(Exception):
    """A check that failed; the message says which and how."""


def free_port():
    """A port nothing listens on now (the kernel's pick), for a server or PostgreSQL to take."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        return listener.getsockname()[1]


def request(port, method, path, body=None, headers=None, timeout=10):
    """One request; returns (status, headers, body bytes) for every status, raises OSError when no answer came."""
    data = json.dumps(body).encode() if body is not None else None
    all_headers = dict({"Content-Type": "application/json"} if data is not None else {}, **(headers or {}))
    prepared = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method, headers=all_headers)
    try:
        with urllib.request.urlopen(prepared, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


class Server:
    """`passwright serve` with pushes off on `database`."""

    def __init__(self, options, work, database, admin):
        self.options, self.work, self.database, self.admin = options, work, database, admin
        self.port = free_port()
        self.log_path = os.path.join(work, "server.log")
        self.process = None

    def start(self):
        env = dict(os.environ, PASSWRIGHT_ADMIN_TOKEN=self.admin)
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen([
                self.options.bin, "serve", "--port", str(self.port), "--database", self.database,
                "--templates", os.path.join(ROOT, "Templates"), "--identities", os.path.join(self.work, "ids"),
                "--data-dir", os.path.join(self.work, "data"), "--log-level", "warning", "--push", "off",
                "--quiet-hours", "off", "--notification-spacing", "0",
            ], env=env, stdout=log, stderr=log)
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise Failure(f"the server exited with {self.process.returncode} at start; see {self.log_path}")
            try:
                if request(self.port, "GET", "/readyz", timeout=2)[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise Failure("the server was not ready within 60 s of its start")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def issue(self, serial, token, extra=None):
        data = {"authenticationToken": token, "member": {"id": serial, "name": f"Member {serial}"}, "points": 0, "tier": "Gold"}
        data.update(extra or {})
        return request(self.port, "POST", "/api/v1/passes", {"template": "loyalty", "serialNumber": serial, "data": data},
                       {"Authorization": f"Bearer {self.admin}"}, timeout=15)

    def update(self, serial, points):
        return request(self.port, "PATCH", f"/api/v1/passes/{PASS_TYPE}/{serial}", {"data": {"points": points}},
                       {"Authorization": f"Bearer {self.admin}"}, timeout=15)

    def stored_points(self, serial):
        status, _, body = request(self.port, "GET", f"/api/v1/passes/{PASS_TYPE}/{serial}", headers={"Authorization": f"Bearer {self.admin}"})
        if status == 404:
            return None
        if status != 200:
            raise Failure(f"reading {serial} answered {status}: {body[:200]!r}")
        return json.loads(body)["data"].get("points")

    def ready(self):
        status, _, body = request(self.port, "GET", "/readyz", timeout=10)
        return status, json.loads(body) if body else {}


def identities(options, work):
    subprocess.run([options.bin, "certs", "dev", "--out", os.path.join(work, "ids"), "--pass-type-id", PASS_TYPE],
                   check=True, stdout=subprocess.DEVNULL)


class Ledger:
    """What the server acknowledged, and every answer it gave."""

    def __init__(self):
        self.lock = threading.Lock()
        self.issued = []          # serials whose issue answered 201
        self.points = {}          # serial -> last acknowledged points
        self.attempted = {}       # serial -> points sent since the last acknowledgement (may be stored)
        self.answers = []         # (time, status, retry-after or None, problem type)
        self.transport_errors = []

    def answer(self, status, headers, body):
        kind = None
        if status >= 400:
            try:
                kind = json.loads(body).get("type")
            except ValueError:
                kind = "not JSON"
        with self.lock:
            self.answers.append((time.time(), status, headers.get("Retry-After"), kind))


def writer(server, ledger, own, stop, prefix):
    """Issues new passes and updates this thread's own passes (one writer per pass) until `stop`."""
    counter = 0
    while not stop.is_set():
        counter += 1
        try:
            if counter % 3 == 0:
                serial = f"{prefix}-{counter}"
                status, headers, body = server.issue(serial, secrets.token_hex(16))
                ledger.answer(status, headers, body)
                if status == 201:
                    with ledger.lock:
                        ledger.issued.append(serial)
            else:
                serial = own[counter % len(own)]
                with ledger.lock:
                    ledger.attempted.setdefault(serial, []).append(counter)
                status, headers, body = server.update(serial, counter)
                ledger.answer(status, headers, body)
                if status == 200:
                    with ledger.lock:
                        ledger.points[serial] = counter
                        ledger.attempted[serial] = []
        except (OSError, http.client.HTTPException) as error:
            with ledger.lock:
                ledger.transport_errors.append(f"{type(error).__name__}: {error}")
        if any(a[1] >= 500 for a in ledger.answers[-1:]):
            time.sleep(0.05)


def postgres_scenario(options, work, cleanups):
    pg_dir = tempfile.mkdtemp(prefix="passwright-outage-pg.", dir="/tmp")
    postgres = os.path.join(ROOT, "scripts", "postgres.sh")
    pg_port = str(free_port())
    url = subprocess.run([postgres, "start", pg_dir, pg_port], check=True, capture_output=True, text=True).stdout.strip()
    cleanups.append(lambda: (subprocess.run([postgres, "stop", pg_dir], capture_output=True), shutil.rmtree(pg_dir, ignore_errors=True)))
    server = Server(options, work, url, secrets.token_urlsafe(30))
    cleanups.append(server.stop)
    server.start()

    threads, ledger, stop = [], Ledger(), threading.Event()
    for t in range(options.threads):
        own = [f"pg-{t}-{i}" for i in range(5)]
        for serial in own:
            status, _, body = server.issue(serial, secrets.token_hex(16))
            if status != 201:
                raise Failure(f"issuing {serial} before the outage answered {status}: {body[:200]!r}")
            ledger.points[serial] = 0
        threads.append(threading.Thread(target=writer, args=(server, ledger, own, stop, f"pg-new-{t}"), daemon=True))
    for thread in threads:
        thread.start()
    try:
        time.sleep(2)
        subprocess.run([postgres, "stop", pg_dir], check=True)
        stopped = time.time()
        readiness = []
        while time.time() - stopped < options.outage:
            readiness.append(server.ready())
            time.sleep(0.5)
        subprocess.run([postgres, "resume", pg_dir, pg_port], check=True)
        resumed = time.time()
        back = None
        while time.time() - resumed < 15 and back is None:
            with ledger.lock:
                back = next((a[0] for a in ledger.answers if a[0] > resumed and a[1] in (200, 201)), None)
            time.sleep(0.1)
        time.sleep(2)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=30)

    problems = []
    during = [a for a in ledger.answers if stopped <= a[0] <= resumed]
    for at, status, retry_after, kind in ledger.answers:
        if status in (200, 201):
            continue
        if status != 503 or not retry_after or not retry_after.isdigit():
            problems.append(f"{at - stopped:+.2f} s: answered {status} (Retry-After {retry_after}, type {kind}); only 503 with Retry-After may fail")
    if ledger.transport_errors:
        problems.append(f"{len(ledger.transport_errors)} requests got no answer, e.g. {ledger.transport_errors[0]}")
    unready = [r for r in readiness if r[0] == 503 and r[1].get("database") == "unavailable"]
    if not unready:
        problems.append(f"/readyz never said 503 database unavailable during the outage: {readiness[:3]}")
    if any(r[0] == 200 for r in readiness[2:]):
        problems.append("/readyz said ready during the outage")
    if back is None or back - resumed > 10:
        problems.append(f"writes did not succeed within 10 s of PostgreSQL's return (first at {back and back - resumed})")
    failed_during = sum(1 for a in during if a[1] == 503)
    problems += check_stored(server, ledger)
    with ledger.lock:
        acknowledged = sum(1 for a in ledger.answers if a[1] in (200, 201))
    print(f"outage postgres: {len(ledger.answers)} writes, {acknowledged} acknowledged, {failed_during} answered 503 during the "
          f"{options.outage:.0f} s outage, /readyz 503 {len(unready)}/{len(readiness)} times, writes back "
          f"{(back - resumed) if back else float('nan'):.2f} s after the return, {len(ledger.issued)} issued and "
          f"{len(ledger.points)} updated passes checked")
    return problems


def check_stored(server, ledger):
    """Every acknowledged issue is stored, and every pass holds its last acknowledged points or a later attempt."""
    problems = []
    for serial in ledger.issued:
        if server.stored_points(serial) is None:
            problems.append(f"issued {serial} (acknowledged 201) is not stored")
    for serial, points in ledger.points.items():
        stored = server.stored_points(serial)
        if stored != points and stored not in ledger.attempted.get(serial, []):
            problems.append(f"{serial} holds {stored} points; last acknowledged {points}")
    return problems


def sqlite_full_scenario(options, work, cleanups):
    if os.geteuid() != 0:
        print("outage sqlite-full: skipped (mounting a tmpfs needs root)")
        return []
    volume = tempfile.mkdtemp(prefix="passwright-outage-full.", dir="/tmp")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", volume], check=True)
    cleanups.append(lambda: (subprocess.run(["umount", "-l", volume]), shutil.rmtree(volume, ignore_errors=True)))
    path = os.path.join(volume, "passwright.sqlite")
    server = Server(options, work, f"sqlite:{path}", secrets.token_urlsafe(30))
    cleanups.append(server.stop)
    server.start()
    status, _, body = server.issue("full-0", secrets.token_hex(16))
    if status != 201:
        raise Failure(f"issuing before the volume filled answered {status}: {body[:200]!r}")

    # Take all but 128 KiB of what is left, so a few writes fill it.
    filler = os.path.join(volume, "filler")
    stat = os.statvfs(volume)
    with open(filler, "wb") as f:
        f.write(b"\0" * max(stat.f_bavail * stat.f_frsize - 128 * 1024, 0))
    problems, full, padding = [], None, "x" * 4000
    for i in range(1, 400):
        status, headers, body = server.issue(f"full-{i}", secrets.token_hex(16), {"member": {"id": f"full-{i}", "name": padding}})
        if status == 201:
            continue
        full = (status, json.loads(body))
        break
    if full is None:
        raise Failure("400 writes of 4 KB never filled the volume")
    status, problem = full
    if status != 507:
        problems.append(f"a write to the full volume answered {status}: {problem}")
    elif problem.get("database") != f"sqlite:{path}" or path not in problem.get("detail", ""):
        problems.append(f"the 507 does not name the database file {path}: {problem}")
    ready_status, readiness = server.ready()
    if ready_status != 503 or readiness.get("database") != "full" or path not in readiness.get("detail", ""):
        problems.append(f"/readyz while full answered {ready_status}: {readiness}")

    os.remove(filler)
    stat = os.statvfs(volume)
    free_after = stat.f_bavail * stat.f_frsize
    freed = time.time()
    ready_after, resumed = None, None
    while time.time() - freed < 10 and (ready_after is None or resumed is None):
        if ready_after is None and server.ready()[0] == 200:
            ready_after = time.time() - freed
        if resumed is None and server.issue(f"after-{int(time.time() * 1000)}", secrets.token_hex(16))[0] == 201:
            resumed = time.time() - freed
        time.sleep(0.1)
    if resumed is None:
        problems.append("writes did not resume within 10 s of freeing space")
    if ready_after is None:
        problems.append("/readyz did not say ready within 10 s of freeing space")
    print(f"outage sqlite-full: 507 after {i} writes naming {problem.get('database')}; /readyz {ready_status} "
          f"{readiness.get('database')}; after freeing space ({free_after // 1024} KiB free) writes resumed in {resumed if resumed is not None else float('nan'):.2f} s, "
          f"ready in {ready_after if ready_after is not None else float('nan'):.2f} s")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True, help="the passwright binary")
    parser.add_argument("--scenario", choices=["postgres", "sqlite-full", "all"], default="all")
    parser.add_argument("--outage", type=float, default=5, help="seconds PostgreSQL stays stopped")
    parser.add_argument("--threads", type=int, default=3)
    options = parser.parse_args()
    options.bin = os.path.abspath(options.bin)

    scenarios = {"postgres": postgres_scenario, "sqlite-full": sqlite_full_scenario}
    names = list(scenarios) if options.scenario == "all" else [options.scenario]
    problems = []
    for name in names:
        work = tempfile.mkdtemp(prefix=f"passwright-outage-{name}.")
        cleanups = []
        failed = True
        try:
            identities(options, work)
            found = scenarios[name](options, work, cleanups)
            problems += [f"{name}: {p}" for p in found]
            failed = bool(found)
        except Failure as error:
            problems.append(f"{name}: {error}")
        finally:
            for cleanup in reversed(cleanups):
                try:
                    cleanup()
                except Exception as error:  # a cleanup must not hide the result
                    print(f"outage: cleanup failed: {error}", file=sys.stderr)
            if failed and os.environ.get("OUTAGE_KEEP") == "1":
                print(f"outage: kept {work}", file=sys.stderr)
            else:
                shutil.rmtree(work, ignore_errors=True)
    for problem in problems[:40]:
        print(f"FAIL {problem}")
    print("outage: ok" if not problems else f"outage: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
