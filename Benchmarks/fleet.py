#!/usr/bin/env python3
"""A fleet of simulated iPhones for Benchmarks/fleet.sh: they follow Apple's Wallet web service
protocol against a running `passwright serve` and are woken by the pushes the APNs stand-in records.

    fleet.py run --port P --admin TOKEN --pass-type ID --template-dir DIR --record FILE
                 --passes N --devices M --waves rollout,patch --engine NAME --results FILE
                 --server-pid PID [--postmaster-pid PID] [--standin-pid PID] [--signatures-per-second S]
                 [--connections 64] [--max-delay 3] [--timeout 900] [--perf-dir DIR]
    fleet.py report RESULTS.jsonl     # one markdown table, a column per engine and wave

`run` sets the fleet up, then plays each wave:

- Setup: publishes the fleet's starting version of the template (the loyalty copy in DIR with a back
  field "Offer" showing the record's `offer`), issues N passes with one bulk job (a CSV body to
  `POST /api/v1/templates/loyalty/jobs`, each record with its own `authenticationToken`), checks one
  pass's pass.json carries that token, registers M devices (device i holds pass i mod N, so with
  M = 1.5 N every pass has one device and half have a second), each with its own 64-hex push token;
  each device asks `GET /wallet/v1/devices/{d}/registrations/{type}` for its `lastUpdated` tag and
  knows its pass's `Last-Modified` (read from the admin API, as if it had downloaded the pass).
- A wave: a trigger, then every device does what iOS does on a push, until every device holds the
  new pass. Triggers: `rollout` publishes a new version of the template (`PUT
  /api/v1/templates/loyalty`, its `logoText` set to a fresh marker): the server rolls every pass to it
  and pushes; `patch` is one template-wide change (`PATCH /api/v1/templates/loyalty/passes` with
  `{"data": {"offer": <fresh marker>}}`, which the Offer back field shows; no `changeMessage`, so
  nothing is held for quiet hours). On each push to its token a device waits a random delay, uniform
  in [0, --max-delay] s (3 s by default: phones that are online answer a push within seconds, and
  spread over a few seconds rather than all at once; a real fleet's spread is wider — phones asleep,
  offline — which only makes the server's work easier), then calls
  `GET …/registrations/{type}?passesUpdatedSince=<its tag>` and, for each serial, `GET
  /wallet/v1/passes/{type}/{serial}` with `If-Modified-Since: <the Last-Modified it last saw>`,
  unzips a 200 in memory and checks that pass.json holds the marker. A push that arrives while the
  device is syncing makes it sync once more afterwards, as Wallet does.
- Measured per wave: time from the trigger until the last device holds the new pass; the pushes'
  first and last arrival; passes refreshed per second; the server's CPU (user + system ticks of
  /proc/<pid>/stat over the wave; on PostgreSQL also the postmaster and its children's) per refreshed
  pass, and as a multiple of one CMS signature's CPU (1 / --signatures-per-second, from `passwright
  bench` in the same run); the fleet's and the stand-in's own CPU; the p50/p99 of each device call
  (from writing the request to reading the whole answer; time spent waiting for one of the fleet's
  --connections keep-alive connections is not counted); pushes per device from the stand-in's record
  (duplicates, strangers); fetches per pass. A JSON line per wave is appended to --results.

Exit status 1 when any device does not end with the new pass (its devices are listed on stderr).
Python 3.9+, standard library only.
"""

import argparse
import asyncio
import csv
import io
import json
import os
import random
import resource
import secrets
import signal
import statistics
import subprocess
import sys
import time
import zipfile
from urllib.parse import quote

TEMPLATE = "loyalty"
TICKS = os.sysconf("SC_CLK_TCK")


# --- HTTP/1.1 keep-alive connections --------------------------------------------------------------

class Connection:
    """One keep-alive HTTP/1.1 connection to the server; reopened when the server closes it."""

    def __init__(self, port):
        self.port = port
        self.reader = self.writer = None

    async def request(self, method, path, headers, body):
        """Sends one request. A GET on a connection that sat idle may find it closed by the server's
        idle timeout (a 100,000-pass wave leaves the /metrics connection idle for minutes): it is sent
        again once on a new connection, as HTTP clients do for idempotent requests."""
        reused = self.writer is not None
        try:
            return await self.exchange(method, path, headers, body)
        except (ConnectionResetError, BrokenPipeError, asyncio.IncompleteReadError):
            if not reused or method != "GET":
                raise
            self.close()
            return await self.exchange(method, path, headers, body)

    async def exchange(self, method, path, headers, body):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
        head += [f"{name}: {value}" for name, value in headers.items()]
        if body is not None or method in ("POST", "PUT", "PATCH"):
            head.append(f"Content-Length: {len(body or b'')}")
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + (body or b""))
        started = time.perf_counter()
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionResetError("the server closed the connection")
        status = int(status_line.split()[1])
        answer = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b"\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            answer[name.strip().lower()] = value.strip()
        if "content-length" in answer:
            data = await self.reader.readexactly(int(answer["content-length"]))
        elif answer.get("transfer-encoding", "").lower() == "chunked":
            data = bytearray()
            while (size := int((await self.reader.readline()).split(b";")[0], 16)) > 0:
                data += await self.reader.readexactly(size)
                await self.reader.readline()
            await self.reader.readline()
            data = bytes(data)
        elif status in (204, 304) or 100 <= status < 200:
            data = b""
        else:
            data = await self.reader.read()
            answer["connection"] = "close"
        elapsed = time.perf_counter() - started
        if answer.get("connection", "").lower() == "close":
            self.close()
        return status, answer, data, elapsed

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Pool:
    """--connections keep-alive connections shared by every device and setup call."""

    def __init__(self, port, size):
        self.idle = asyncio.Queue()
        self.waits = []  # seconds each request waited for a free connection
        self.waiting = 0  # requests waiting for one now
        for _ in range(size):
            self.idle.put_nowait(Connection(port))

    async def request(self, method, path, headers=None, body=None):
        """(status, headers, body, seconds); one retry on a fresh connection if the old one was closed."""
        asked = time.perf_counter()
        self.waiting += 1
        connection = await self.idle.get()
        self.waiting -= 1
        self.waits.append(time.perf_counter() - asked)
        try:
            for attempt in (1, 2):
                try:
                    return await connection.request(method, path, headers or {}, body)
                except (ConnectionError, asyncio.IncompleteReadError):
                    connection.close()
                    if attempt == 2:
                        raise
        finally:
            self.idle.put_nowait(connection)


async def each(items, work, limit):
    """Runs work(item) for every item, `limit` at a time."""
    items = iter(items)

    async def worker():
        for item in items:
            await work(item)

    await asyncio.gather(*(worker() for _ in range(limit)))


# --- CPU from /proc -------------------------------------------------------------------------------

def ticks(pid):
    """User + system clock ticks of one process (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as file:
            fields = file.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return 0


def children(pid):
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as file:
                    if int(file.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
                pass
    return found


def cpu_snapshot(options):
    """Seconds of CPU so far: the server, PostgreSQL (per pid), the stand-in and this fleet."""
    database = {}
    if options.postmaster_pid:
        for pid in [options.postmaster_pid] + children(options.postmaster_pid):
            database[pid] = ticks(pid)
    own = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "server": ticks(options.server_pid) / TICKS,
        "database": database,
        "standin": ticks(options.standin_pid) / TICKS if options.standin_pid else 0.0,
        "fleet": own.ru_utime + own.ru_stime,
    }


def cpu_spent(before, after):
    database = sum(after["database"][pid] - before["database"].get(pid, 0) for pid in after["database"]) / TICKS
    return {name: after[name] - before[name] for name in ("server", "standin", "fleet")} | {"database": database}


# --- The fleet ------------------------------------------------------------------------------------

def percentile(values, share):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


class Device:
    def __init__(self, index, serial, push_token):
        self.id = f"fleet-{index:07d}"
        self.serial = serial
        self.push_token = push_token
        self.tag = None
        self.last_modified = None
        self.syncing = False
        self.again = False
        self.holds_new = False
        self.woke = None  # when the wave's first push woke it (its delay over)


class Fleet:
    def __init__(self, options):
        self.options = options
        self.pool = Pool(options.port, options.connections)
        self.metrics_connection = Connection(options.port)
        self.admin = {"Authorization": f"Bearer {options.admin}"}
        self.serials = [f"F{index:07d}" for index in range(options.passes)]
        self.tokens = {serial: secrets.token_hex(16) for serial in self.serials}
        self.devices = [Device(index, self.serials[index % options.passes], secrets.token_hex(32)) for index in range(options.devices)]
        self.by_push_token = {device.push_token: device for device in self.devices}
        self.wave = None
        # The syncs running: the loop holds tasks weakly, and a task waiting on a connection only it
        # holds would otherwise be collected mid-request.
        self.syncs = set()

    async def call(self, method, path, headers=None, body=None, expect=(200,)):
        status, answer, data, elapsed = await self.pool.request(method, path, headers, body)
        if status not in expect:
            raise SystemExit(f"fleet: {method} {path}: HTTP {status} {data[:300]!r}")
        return status, answer, data, elapsed

    async def admin_json(self, method, path, body=None, content_type="application/json", expect=(200,)):
        headers = dict(self.admin)
        if body is not None:
            headers["Content-Type"] = content_type
            if content_type == "application/json":
                body = json.dumps(body).encode()
        _, _, data, _ = await self.call(method, path, headers, body, expect)
        return json.loads(data) if data else None

    async def metrics(self):
        """The server's /metrics samples by name, over a connection of their own (the fleet's may all be busy)."""
        status, _, data, _ = await self.metrics_connection.request("GET", "/metrics", {}, None)
        if status != 200:
            raise SystemExit(f"fleet: GET /metrics: HTTP {status}")
        values = {}
        for line in data.decode().splitlines():
            name, _, value = line.partition(" ")
            if not name.startswith("#"):
                values[name] = float(value)
        return values

    async def signing_counters(self):
        """The server's signed-pass cache counters from /metrics: (lookups answered, signatures made), or
        None from a build without them."""
        values = await self.metrics()
        if "passwright_pass_cache_misses" not in values:
            return None
        return values["passwright_pass_cache_hits"], values["passwright_pass_cache_misses"]

    # Setup ---------------------------------------------------------------------------------------

    def template_zip(self):
        folder = self.options.template_dir
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for root, _, files in os.walk(folder):
                for name in sorted(files):
                    if not name.startswith("."):
                        path = os.path.join(root, name)
                        archive.write(path, os.path.relpath(path, folder))
        return buffer.getvalue()

    def edit_pass_json(self, change):
        path = os.path.join(self.options.template_dir, "pass.json")
        with open(path, encoding="utf-8") as file:
            model = json.load(file)
        change(model)
        with open(path, "w", encoding="utf-8") as file:
            json.dump(model, file, indent=2, ensure_ascii=False)

    async def publish(self):
        return await self.admin_json("PUT", f"/api/v1/templates/{TEMPLATE}", self.template_zip(), "application/zip", expect=(200, 201))

    async def set_up(self):
        started = time.time()

        def add_offer(model):
            model["storeCard"]["backFields"].insert(0, {"key": "offer", "label": "Offer", "value": "{{offer}}"})
        self.edit_pass_json(add_offer)
        await self.publish()

        rows = io.StringIO()
        writer = csv.writer(rows)
        writer.writerow(["serialNumber", "member.id", "member.name", "points", "tier", "authenticationToken", "offer"])
        for index, serial in enumerate(self.serials):
            writer.writerow([serial, f"BL-{index:08d}", f"Member {index}", index % 5000, ("Gold", "Silver", "Platinum")[index % 3],
                             self.tokens[serial], "A free pastry with every coffee"])
        job = await self.admin_json("POST", f"/api/v1/templates/{TEMPLATE}/jobs", rows.getvalue().encode(), "text/csv", expect=(202,))
        while job["state"] not in ("completed", "failed", "rejected"):
            await asyncio.sleep(0.5)
            job = await self.admin_json("GET", f"/api/v1/jobs/{job['id']}")
        if job["issued"] != self.options.passes or job["failed"]:
            raise SystemExit(f"fleet: the bulk job ended {job['state']} with {job['issued']} issued, {job['failed']} failed")
        issued = time.time()

        # The template takes the token from the record: check it on one pass.
        serial = self.serials[0]
        _, _, archive, _ = await self.call("GET", f"/api/v1/passes/{quote(self.options.pass_type)}/{serial}/pkpass", self.admin)
        model = json.loads(zipfile.ZipFile(io.BytesIO(archive)).read("pass.json"))
        if model.get("authenticationToken") != self.tokens[serial]:
            raise SystemExit("fleet: the pass does not carry the record's authenticationToken")
        web_service = model.get("webServiceURL")

        async def register(device):
            await self.call("POST", f"/wallet/v1/devices/{device.id}/registrations/{self.options.pass_type}/{device.serial}",
                            {"Authorization": f"ApplePass {self.tokens[device.serial]}", "Content-Type": "application/json"},
                            json.dumps({"pushToken": device.push_token}).encode(), expect=(201,))
        await each(self.devices, register, self.options.connections)
        registered = time.time()

        async def tag(device):
            _, _, data, _ = await self.call("GET", f"/wallet/v1/devices/{device.id}/registrations/{self.options.pass_type}")
            answer = json.loads(data)
            if answer["serialNumbers"] != [device.serial]:
                raise SystemExit(f"fleet: {device.id} lists {answer['serialNumbers']}")
            device.tag = answer["lastUpdated"]
        await each(self.devices, tag, self.options.connections)

        modified = {}

        async def last_modified(serial):
            modified[serial] = (await self.admin_json("GET", f"/api/v1/passes/{quote(self.options.pass_type)}/{serial}"))["lastModified"]
        await each(self.serials, last_modified, self.options.connections)
        for device in self.devices:
            device.last_modified = modified[device.serial]
        print(f"fleet: {self.options.engine}: {self.options.passes} passes issued in {issued - started:.1f} s, "
              f"{self.options.devices} devices registered in {registered - issued:.1f} s; webServiceURL {web_service}", file=sys.stderr)

    # Pushes --------------------------------------------------------------------------------------

    async def tail_pushes(self):
        """Reads the stand-in's record as it grows and hands each push of a wave to its device."""
        with open(self.options.record, "a"):
            pass
        with open(self.options.record, "rb") as record:
            record.seek(0, os.SEEK_END)
            partial = b""
            loop = asyncio.get_running_loop()
            while True:
                chunk = record.read()
                if not chunk:
                    await asyncio.sleep(0.01)
                    continue
                lines = (partial + chunk).split(b"\n")
                partial = lines.pop()
                for line in lines:
                    entry = json.loads(line)
                    wave = self.wave
                    if wave is None:
                        continue
                    token = entry["path"].rsplit("/", 1)[-1]
                    wave.pushes.append((entry["time"], token))
                    device = self.by_push_token.get(token)
                    if device is not None:
                        loop.call_later(random.uniform(0, self.options.max_delay), self.woken, device)

    def woken(self, device):
        if device.woke is None:
            device.woke = time.time()
        if device.syncing:
            device.again = True
        else:
            task = asyncio.ensure_future(self.sync(device))
            self.syncs.add(task)
            task.add_done_callback(self.syncs.discard)

    async def sync(self, device):
        """What Wallet does on a push: the changed serials since its tag, then each changed pass."""
        device.syncing = True
        try:
            while True:
                device.again = False
                await self.sync_once(device)
                if not device.again:
                    break
        except Exception as error:  # a device that fails is reported, not the fleet stopped
            self.wave.errors.append(f"{device.id}: {error!r}")
        finally:
            device.syncing = False

    async def device_call(self, call, path, headers, expect):
        """One of a device's GETs, its latency and answer counted under `call` (list, fetch)."""
        status, answer, data, elapsed = await self.pool.request("GET", path, headers)
        self.wave.latency[call].append(elapsed)
        self.wave.statuses[call][status] = self.wave.statuses[call].get(status, 0) + 1
        if status not in expect:
            raise RuntimeError(f"{call} {path}: HTTP {status}")
        return status, answer, data

    async def sync_once(self, device):
        wave, pass_type = self.wave, self.options.pass_type
        status, _, data = await self.device_call(
            "list", f"/wallet/v1/devices/{device.id}/registrations/{pass_type}?passesUpdatedSince={device.tag}", {}, (200, 204))
        if status == 204:
            return
        answer = json.loads(data)
        for serial in answer["serialNumbers"]:
            status, headers, archive = await self.device_call(
                "fetch", f"/wallet/v1/passes/{pass_type}/{serial}",
                {"Authorization": f"ApplePass {self.tokens[serial]}", "If-Modified-Since": device.last_modified}, (200, 304))
            if status == 304:
                continue
            wave.fetches[serial] = wave.fetches.get(serial, 0) + 1
            device.last_modified = headers.get("last-modified", device.last_modified)
            if wave.marker.encode() in zipfile.ZipFile(io.BytesIO(archive)).read("pass.json"):
                if not device.holds_new:
                    device.holds_new = True
                    wave.refresh_latency.append(time.time() - device.woke)
                    wave.holding += 1
                    if wave.holding == len(self.devices):
                        wave.last_held = time.time()
                        wave.cpu_at_end = cpu_snapshot(self.options)
                        wave.done.set()
            else:
                wave.stale += 1
        device.tag = answer["lastUpdated"]

    # A wave --------------------------------------------------------------------------------------

    async def play(self, name):
        wave = Wave(name)
        for device in self.devices:
            device.holds_new, device.woke = False, None
        before_wave = {device.id: (device.tag, device.last_modified) for device in self.devices}
        await asyncio.sleep(1.1)  # Last-Modified has whole seconds: the wave's change must fall in a later one
        load = open("/proc/loadavg").read().split()[:3]
        self.wave = wave
        profiler = None
        if self.options.perf_dir:
            profiler = subprocess.Popen(
                ["perf", "record", "-F", "300", "--call-graph", "dwarf", "-p", str(self.options.server_pid), "-o", f"{self.options.perf_dir}/perf-{self.options.engine}-{name}.data"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            await asyncio.sleep(1)  # perf attached before the trigger
        counters_before = await self.signing_counters()
        before = cpu_snapshot(self.options)
        self.pool.waits = []
        wave.started = time.time()
        monitor = asyncio.ensure_future(self.watch(wave))
        if name == "rollout":
            self.edit_pass_json(lambda model: model.__setitem__("logoText", wave.marker))
            answer = await self.publish()
            trigger = f"PUT a new version: version {answer['version']}, {answer['passesAffected']} passes affected"
        else:
            answer = await self.admin_json("PATCH", f"/api/v1/templates/{TEMPLATE}/passes", {"data": {"offer": wave.marker}})
            trigger = f"PATCH: {answer['changed']} changed, {answer['held']} held, {answer['pushesQueued']} pushes queued"
        wave.trigger_seconds = time.time() - wave.started
        print(f"fleet: {self.options.engine} {name}: {trigger} in {wave.trigger_seconds:.2f} s", file=sys.stderr)
        try:
            await asyncio.wait_for(wave.done.wait(), self.options.timeout)
        except asyncio.TimeoutError:
            wave.last_held = None
            wave.cpu_at_end = cpu_snapshot(self.options)
        monitor.cancel()
        if profiler:
            profiler.send_signal(signal.SIGINT)
            profiler.wait()
        # Settle: the queue drained and every delay over, so a duplicate push (and what it makes a device
        # do) is seen too.
        while (await self.admin_json("GET", "/api/v1/push/stats"))["queued"] > 0 and time.time() - wave.started < self.options.timeout:
            await asyncio.sleep(0.2)
        await asyncio.sleep(self.options.max_delay + 1)
        while any(device.syncing for device in self.devices):
            await asyncio.sleep(0.1)
        self.wave = None
        result = self.summary(wave, before, load)
        counters_after = await self.signing_counters()
        if counters_before and counters_after:
            result["cache_hits"] = counters_after[0] - counters_before[0]
            result["signatures_made"] = counters_after[1] - counters_before[1]
        if self.options.replay:
            result |= await self.replay(wave, before_wave)
        return result

    async def replay(self, wave, before_wave):
        """The same-run experiment that bounds the CPU per refreshed pass from below: every device makes
        its wave's calls again (changed serials since its tag before the wave, then the pass with its
        old If-Modified-Since), as fast as the fleet's connections allow, with no push and every pass
        already signed. What the server spends on that is what the device calls alone cost a
        refreshed pass, whatever pushing and signing cost besides."""
        pass_type = self.options.pass_type
        answered = {"list": 0, "fetch": 0}

        async def calls(device):
            tag, last_modified = before_wave[device.id]
            status, _, data, _ = await self.call(
                "GET", f"/wallet/v1/devices/{device.id}/registrations/{pass_type}?passesUpdatedSince={tag}", expect=(200,))
            answered["list"] += 1
            for serial in json.loads(data)["serialNumbers"]:
                _, _, archive, _ = await self.call(
                    "GET", f"/wallet/v1/passes/{pass_type}/{serial}",
                    {"Authorization": f"ApplePass {self.tokens[serial]}", "If-Modified-Since": last_modified}, expect=(200,))
                if wave.marker.encode() not in zipfile.ZipFile(io.BytesIO(archive)).read("pass.json"):
                    raise SystemExit(f"fleet: replay: {serial} is not the wave's pass")
                answered["fetch"] += 1

        counters_before = await self.signing_counters()
        before = cpu_snapshot(self.options)
        started = time.time()
        await each(self.devices, calls, self.options.connections)
        seconds = time.time() - started
        spent = cpu_spent(before, cpu_snapshot(self.options))
        counters_after = await self.signing_counters()
        print(f"fleet: {self.options.engine} {wave.name}: replayed {answered['list']} lists and {answered['fetch']} fetches "
              f"in {seconds:.1f} s", file=sys.stderr)
        return {"replay_seconds": seconds, "replay_lists": answered["list"], "replay_fetches": answered["fetch"],
                "replay_server_cpu": spent["server"], "replay_database_cpu": spent["database"],
                "replay_fleet_cpu": spent["fleet"],
                "replay_signatures": counters_after[1] - counters_before[1] if counters_before and counters_after else None}

    async def watch(self, wave):
        """Every second of the wave: pushes received, devices woken and holding the new pass so far, device
        calls waiting for a connection, and the server's CPU in that second."""
        last = ticks(self.options.server_pid)
        while True:
            await asyncio.sleep(1)
            now = ticks(self.options.server_pid)
            pace = (await self.metrics()).get("passwright_push_pace")
            wave.timeline.append([round(time.time() - wave.started), len(wave.pushes), sum(1 for device in self.devices if device.woke),
                                  wave.holding, self.pool.waiting, round((now - last) / TICKS, 2), "–" if pace is None else round(pace)])
            last = now

    def summary(self, wave, before, load):
        options = self.options
        spent = cpu_spent(before, wave.cpu_at_end)
        seconds = (wave.last_held or time.time()) - wave.started
        counts = {}
        for _, token in wave.pushes:
            counts[token] = counts.get(token, 0) + 1
        expected = {device.push_token for device in self.devices}
        times = [moment - wave.started for moment, _ in wave.pushes]
        refreshed = len(wave.fetches)
        fetches = list(wave.fetches.values())
        signature = 1 / options.signatures_per_second if options.signatures_per_second else None
        failed = [device.id for device in self.devices if not device.holds_new]
        return {
            "engine": options.engine, "wave": wave.name, "passes": options.passes, "devices": options.devices,
            "load": " ".join(load), "trigger_seconds": wave.trigger_seconds,
            "seconds": seconds, "complete": not failed, "failed_devices": failed[:20], "failed_count": len(failed),
            "refreshed": refreshed, "passes_per_second": refreshed / seconds,
            "first_push": min(times, default=float("nan")), "last_push": max(times, default=float("nan")),
            "last_wake": max((device.woke for device in self.devices if device.woke), default=float("nan")) - wave.started,
            "refresh_p50": percentile(wave.refresh_latency, 0.50), "refresh_p99": percentile(wave.refresh_latency, 0.99),
            "pushes": len(wave.pushes), "pushed_tokens": sum(1 for token in counts if token in expected),
            "duplicate_pushes": sum(count - 1 for token, count in counts.items() if count > 1),
            "max_pushes_per_token": max(counts.values(), default=0),
            "stranger_pushes": sum(count for token, count in counts.items() if token not in expected),
            "fetches_200": sum(fetches), "fetches_per_pass_mean": statistics.mean(fetches) if fetches else 0,
            "fetches_per_pass_max": max(fetches, default=0), "passes_never_fetched": options.passes - refreshed,
            "fetch_status": wave.statuses["fetch"], "list_status": wave.statuses["list"], "stale_fetches": wave.stale,
            "errors": wave.errors[:10], "error_count": len(wave.errors),
            "pool_wait_p50_ms": percentile(self.pool.waits, 0.50) * 1000, "pool_wait_p99_ms": percentile(self.pool.waits, 0.99) * 1000,
            "list_p50_ms": percentile(wave.latency["list"], 0.50) * 1000, "list_p99_ms": percentile(wave.latency["list"], 0.99) * 1000,
            "fetch_p50_ms": percentile(wave.latency["fetch"], 0.50) * 1000, "fetch_p99_ms": percentile(wave.latency["fetch"], 0.99) * 1000,
            "server_cpu": spent["server"], "database_cpu": spent["database"], "fleet_cpu": spent["fleet"], "standin_cpu": spent["standin"],
            "signature_ms": signature * 1000 if signature else None, "signatures_per_second": options.signatures_per_second,
            "timeline": wave.timeline, "connections": options.connections, "max_delay": options.max_delay, "cores": os.cpu_count(),
        }


class Wave:
    def __init__(self, name):
        self.name = name
        self.marker = f"{name}-{secrets.token_hex(6)}"
        self.done = asyncio.Event()
        self.holding = 0
        self.pushes = []  # (time, token)
        self.fetches = {}  # serial -> 200s
        self.statuses = {"list": {}, "fetch": {}}
        self.latency = {"list": [], "fetch": []}  # seconds
        self.refresh_latency = []  # a device's wake-up to its holding the new pass
        self.timeline = []  # [second, pushes, woken, holding, waiting for a connection, server cores busy, push pace]
        self.stale = 0
        self.errors = []
        self.started = self.last_held = self.cpu_at_end = None
        self.trigger_seconds = None


async def run(options):
    fleet = Fleet(options)
    await fleet.set_up()
    tail = asyncio.ensure_future(fleet.tail_pushes())
    complete = True
    for name in options.waves.split(","):
        result = await fleet.play(name)
        with open(options.results, "a", encoding="utf-8") as file:
            file.write(json.dumps(result) + "\n")
        print(f"fleet: {options.engine} {name}: every device held the new pass after {result['seconds']:.1f} s" if result["complete"]
              else f"fleet: {options.engine} {name}: {result['failed_count']} devices without the new pass, e.g. {result['failed_devices'][:5]}; "
                   f"errors {result['errors'][:3]}", file=sys.stderr)
        complete = complete and result["complete"]
    tail.cancel()
    return complete


# --- The report -----------------------------------------------------------------------------------

def report(path):
    results = [json.loads(line) for line in open(path, encoding="utf-8")]

    def cores_left(result):
        return result["cores"] - (result["fleet_cpu"] + result["standin_cpu"]) / result["seconds"]

    def per_pass_ms(result, key):
        return f"{result[key] / max(result['refreshed'], 1) * 1000:.2f} ms"

    def signatures(result, key):
        if not result["signature_ms"]:
            return "—"
        return f"{result[key] / max(result['refreshed'], 1) * 1000 / result['signature_ms']:.2f}"

    rows = [
        ("load average before the wave", lambda r: r["load"]),
        ("trigger answered (PUT / PATCH)", lambda r: f"{r['trigger_seconds']:.2f} s"),
        ("first / last push received (pushes/s between)", lambda r: f"{r['first_push']:.1f} s / {r['last_push']:.1f} s ({r['pushes'] / max(r['last_push'] - r['first_push'], 1e-9):.0f})"),
        ("last device woken (its push plus its delay)", lambda r: f"{r['last_wake']:.1f} s"),
        ("a device's wake-up to holding the new pass, p50 / p99", lambda r: f"{r['refresh_p50'] * 1000:.0f} / {r['refresh_p99'] * 1000:.0f} ms"),
        ("**every device holds the new pass**", lambda r: f"**{r['seconds']:.1f} s**" + ("" if r["complete"] else f" ({r['failed_count']} never)")),
        ("**refreshed passes per second**", lambda r: f"**{r['passes_per_second']:.0f}**"),
        ("server CPU over the wave (cores busy)", lambda r: f"{r['server_cpu']:.1f} s ({r['server_cpu'] / r['seconds']:.2f})"),
        ("**server CPU per refreshed pass**", lambda r: f"**{per_pass_ms(r, 'server_cpu')}**"),
        ("… in CMS signatures (1 signature = `bench`'s CPU)", lambda r: f"{signatures(r, 'server_cpu')} ({r['signature_ms']:.3f} ms, {r['signatures_per_second']:.0f}/s on 1 core)" if r["signature_ms"] else "—"),
        ("signatures made per refreshed pass / archives served from the cache (server's /metrics)",
         lambda r: f"{r['signatures_made'] / max(r['refreshed'], 1):.2f} / {r['cache_hits']:.0f}" if "signatures_made" in r else "—"),
        ("replayed device calls alone, all passes signed (lists + fetches in s, calls/s)",
         lambda r: f"{r['replay_lists']} + {r['replay_fetches']} in {r['replay_seconds']:.1f} s ({(r['replay_lists'] + r['replay_fetches']) / r['replay_seconds']:.0f}/s)" if "replay_seconds" in r else "—"),
        ("… server CPU per refreshed pass, in signatures (signatures made)",
         lambda r: f"{r['replay_server_cpu'] / max(r['refreshed'], 1) * 1000:.2f} ms ({signatures(r, 'replay_server_cpu')}; {r['replay_signatures']:.0f})" if "replay_seconds" in r and r["signature_ms"] else "—"),
        ("PostgreSQL CPU per refreshed pass (in signatures)", lambda r: f"{per_pass_ms(r, 'database_cpu')} ({signatures(r, 'database_cpu')})" if r["engine"] == "postgres" else "—"),
        ("fleet / stand-in CPU over the wave", lambda r: f"{r['fleet_cpu']:.1f} s / {r['standin_cpu']:.1f} s"),
        ("cores left to the server (cores − fleet − stand-in)", lambda r: f"{cores_left(r):.2f}"),
        ("**refreshed passes/s ÷ (signatures/s × cores left)**", lambda r: f"**{r['passes_per_second'] / (r['signatures_per_second'] * cores_left(r)):.2f}**" if r["signatures_per_second"] else "—"),
        ("a device call's wait for one of the fleet's connections, p50 / p99", lambda r: f"{r['pool_wait_p50_ms']:.1f} / {r['pool_wait_p99_ms']:.1f} ms"),
        ("list serials p50 / p99", lambda r: f"{r['list_p50_ms']:.1f} / {r['list_p99_ms']:.1f} ms"),
        ("get pass p50 / p99", lambda r: f"{r['fetch_p50_ms']:.1f} / {r['fetch_p99_ms']:.1f} ms"),
        ("pushes received (tokens) / duplicates / max per device", lambda r: f"{r['pushes']} ({r['pushed_tokens']}) / {r['duplicate_pushes']} / {r['max_pushes_per_token']}"),
        ("list serials answers", lambda r: ", ".join(f"{status}: {count}" for status, count in sorted(r["list_status"].items()))),
        ("get pass answers; stale 200s", lambda r: ", ".join(f"{status}: {count}" for status, count in sorted(r["fetch_status"].items())) + f"; {r['stale_fetches']}"),
        ("fetches (200) per pass, mean / max", lambda r: f"{r['fetches_per_pass_mean']:.2f} / {r['fetches_per_pass_max']}"),
    ]
    print("| measure | " + " | ".join(f"{r['engine']}, {r['wave']}" for r in results) + " |")
    print("|---" * (len(results) + 1) + "|")
    for name, cell in rows:
        print(f"| {name} | " + " | ".join(cell(r) for r in results) + " |")
    print("\nThe waves second by second: pushes received, devices woken, devices holding the new pass (all so far), device calls "
          "waiting for a fleet connection, server cores busy in that second, the server's push pace then (pushes/s allowed).\n")
    print("| s | " + " | ".join(f"{r['engine']}, {r['wave']}" for r in results) + " |")
    print("|---" * (len(results) + 1) + "|")
    longest = max(len(r["timeline"]) for r in results)
    for second in range(1, longest + 1, 2):
        cells = [" / ".join(str(value) for value in r["timeline"][second - 1][1:]) if second <= len(r["timeline"]) else "" for r in results]
        print(f"| {second} | " + " | ".join(cells) + " |")
    first = results[0]
    print(f"\n{first['passes']} passes, {first['devices']} devices; {first['connections']} keep-alive connections from the fleet, "
          f"each device waits uniform 0–{first['max_delay']:g} s after its push")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser("run")
    play.add_argument("--port", type=int, required=True)
    play.add_argument("--admin", required=True)
    play.add_argument("--pass-type", required=True)
    play.add_argument("--template-dir", required=True)
    play.add_argument("--record", required=True)
    play.add_argument("--passes", type=int, required=True)
    play.add_argument("--devices", type=int, required=True)
    play.add_argument("--waves", default="rollout,patch")
    play.add_argument("--engine", required=True)
    play.add_argument("--results", required=True)
    play.add_argument("--server-pid", type=int, required=True)
    play.add_argument("--postmaster-pid", type=int)
    play.add_argument("--standin-pid", type=int)
    play.add_argument("--signatures-per-second", type=float)
    play.add_argument("--connections", type=int, default=64)
    play.add_argument("--max-delay", type=float, default=3.0)
    play.add_argument("--timeout", type=float, default=900.0)
    play.add_argument("--no-replay", dest="replay", action="store_false",
                      help="skip replaying each wave's device calls against the signed passes (the CPU floor of the calls alone)")
    play.add_argument("--perf-dir", help="record each wave's server with `perf record --call-graph dwarf` into this folder")
    summary = commands.add_parser("report")
    summary.add_argument("results")
    options = parser.parse_args()
    if options.command == "report":
        report(options.results)
        return
    if options.devices < options.passes:
        raise SystemExit("fleet: at least one device per pass")
    sys.exit(0 if asyncio.run(run(options)) else 1)


if __name__ == "__main__":
    main()
