#!/usr/bin/env python3
"""Browser tests of the web console (issue #13) against what README.md's "Console" section promises.

Selenium drives Debian's headless Chromium (/usr/bin/chromium, /usr/bin/chromedriver) at 1280x900, and
at 320 px wide for the reflow checks, against a live `passwright serve` that scripts/browser.sh starts
(push on, against the APNs stand-in). Plain HTTP checks (statuses, headers, forged posts) use urllib
with the session cookie read from the browser. Each test is a function run in order and reported as
`PASS name` or `FAIL name: reason`; the last line is `N passed, M failed`. Exit status 1 on a failure.

Environment (scripts/browser.sh sets it): BROWSER_BASE (http://127.0.0.1:PORT), PASSWRIGHT_ADMIN_TOKEN,
BROWSER_ARTEFACTS (screenshots NN-page.png, and page sources of failures), BROWSER_APNS_RECORD (the
stand-in's JSON-lines record), BROWSER_PROFILE (Chromium's profile folder), BROWSER_AXE_JS (axe-core's
axe.min.js, run in every page the accessibility tests visit).

    console_test.py [--only SUBSTRING]

Assumptions, where the contract is silent (the console should match these, or this file should change):
  A1  Redirects are 303 with a Location whose path is the target (absolute or relative URL both fine).
  A2  After a failed sign-in the browser stays at /console/sign-in (the 401 page is the POST's answer).
  A3  The review page's <h1> contains "Review loyalty"; table.lint has <th> cells whose first three texts
      are exactly Before, After, What this changes (a <thead> row), even when there are no findings.
  A4  After "Make current" the template page (/console/templates/NAME) shows a `.notice`, and the new
      current version number appears in <main> outside table#versions, as <data value="N"> (the layout's
      rule for numbers) or as the word "version" followed by N.
  A5  Each edit input starts with the pass's current value for its placeholder; its <label for> text is
      the placeholder path (e.g. "member.name"). The set of data.* inputs is exactly the template's
      placeholders (loyalty: tier, points, member.name, member.id).
  A6  The save notice reads "Saved: N push queued" or "Saved: N pushes queued" (N = registered devices).
  A7  A device's row in table#devices contains the first 8 characters of its device id, and its APNs
      answer cell shows the status as the number 200 (reason empty) once the stand-in has answered.
  A8  table#history has a row per update; after an edit of member.name, some row names the changed
      top-level data key as "data.member" (the store records which top-level keys changed).
  A9  A raw data textarea that is not valid JSON is a problem: 422 page with `.error`, nothing stored.
  A10 The search box finds a pass by a serial prefix; a query matching nothing shows `p.empty` and no row.
  A11 /console/assets/console.js answers 200 with a session; without one, 303 or 403 (contract: 303).
  A12 Pages never contain the admin token, the session cookie's value, the pass's authenticationToken,
      a device's full id (the contract shows it shortened) or its push token.
  A13 A label may also be a <label> wrapping the control (implicit label), besides label[for],
      aria-label and aria-labelledby; buttons need a name (text, aria-label or aria-labelledby).
  A14 Contrast is measured against the nearest opaque background colour found by compositing
      background colours up the ancestor chain over white (background images are not considered), in
      both the light and the emulated dark colour scheme, and the dark scheme must change the page's
      background (the contract asks for `prefers-color-scheme: dark`).
  A15 The accessibility checks run on a template page (loyalty) and a pass page (the pass issued here)
      besides the fixed pages; focus order is not judged, only that TAB reaches every visible control.
  A16 Five or fewer failed sign-ins happen here (two), so the 429 limit is never hit.
  A17 A form POST with the page's csrf from a client that sends no Origin or Referer (urllib) is accepted:
      the csrf field alone decides (the positive control of the security test).
  A18 GET /api/v1/analytics takes the dashboard form's query unchanged (template, from, to, interval).
  A19 Every value the dashboard draws is an SVG element with data-series, data-value and data-period (a
      period's start) or data-name (push failures, by reason); the figures at the top are #figure-* <data>;
      each version in the report is a g.marker with data-version and data-day in #chart-installs.
  A20 Counters are written with the events, so two equal API answers around the page's load mean the page
      drew the same report.
"""

import argparse
import base64
import http.cookiejar
import io
import json
import os
import re
import secrets
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BASE = os.environ.get("BROWSER_BASE", "").rstrip("/")
ADMIN_TOKEN = os.environ.get("PASSWRIGHT_ADMIN_TOKEN", "")
ARTEFACTS = Path(os.environ.get("BROWSER_ARTEFACTS", ROOT / ".build" / "browser-artefacts"))
APNS_RECORD = os.environ.get("BROWSER_APNS_RECORD", "")
PROFILE = os.environ.get("BROWSER_PROFILE", "")
AXE_JS = os.environ.get("BROWSER_AXE_JS", "")

TEMPLATE = "loyalty"
PASS_TYPE = "pass.dev.passwright.loyalty"
PLACEHOLDERS = {"tier", "points", "member.name", "member.id"}
SESSION_COOKIE = "passwright_console"
CONTRACT_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
HTTP_TIMEOUT = 15      # seconds for one plain HTTP request
WAIT = 10              # seconds an element, navigation or push answer may take
CHANGED_LABEL = "Cardholder"


class Failure(Exception):
    """A test's assertion failed; the message is the reason printed."""


def require(condition, reason):
    if not condition:
        raise Failure(reason)


# ---------------------------------------------------------------------------------------------------
# Plain HTTP (urllib), never following redirects, so a 303 is seen as a 303.

class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


OPENER = urllib.request.build_opener(NoRedirect)


class Answer:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    @property
    def text(self):
        return self.body.decode("utf-8", "replace")

    def location_path(self):
        location = self.headers.get("Location", "")
        return urllib.parse.urlparse(urllib.parse.urljoin(BASE + "/", location)).path

    def json(self):
        return json.loads(self.body)


def http(method, path, body=None, headers=None, cookies=None):
    """One request to the server; returns an Answer for every status (3xx, 4xx and 5xx included)."""
    headers = dict(headers or {})
    if cookies:
        headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in cookies.items())
    request = urllib.request.Request(BASE + path, data=body, method=method, headers=headers)
    try:
        with OPENER.open(request, timeout=HTTP_TIMEOUT) as response:
            return Answer(response.status, response.headers, response.read())
    except urllib.error.HTTPError as error:
        return Answer(error.code, error.headers, error.read())


def api(method, path, payload=None, raw=None, content_type="application/json"):
    headers = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    body = raw
    if payload is not None:
        body = json.dumps(payload).encode()
    if body is not None:
        headers["Content-Type"] = content_type
    return http(method, path, body, headers)


def form_post(path, fields, cookies=None):
    body = urllib.parse.urlencode(fields).encode()
    return http("POST", path, body, {"Content-Type": "application/x-www-form-urlencoded"}, cookies)


def describe(answer):
    snippet = re.sub(r"\s+", " ", answer.text)[:160]
    return f"{answer.status} ({snippet!r})" if snippet else str(answer.status)


# ---------------------------------------------------------------------------------------------------
# The browser.

def start_browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900",
                     "--disable-gpu", "--no-first-run", "--disable-extensions", "--disable-background-networking",
                     "--disable-sync", "--password-store=basic", "--lang=en-GB"):
        options.add_argument(argument)
    if PROFILE:
        options.add_argument(f"--user-data-dir={PROFILE}")
    service = Service(executable_path="/usr/bin/chromedriver")
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(30)
    driver.implicitly_wait(0)
    return driver


class Run:
    """State shared by the tests, in order: the browser, the issued pass, screenshots taken."""

    def __init__(self, driver):
        self.driver = driver
        self.shots = 0
        self.current_test = ""
        self.pass_info = None        # serial, authentication token, device id, push token
        self.template_version = None  # the version made current by the upload test
        self.uploaded = None          # (version, label) published through the console
        self.job_path = None          # /console/jobs/ID of the bulk upload test's job

    # -- navigation ---------------------------------------------------------------------------------

    def path(self):
        return urllib.parse.urlparse(self.driver.current_url).path

    def shot(self, name):
        """A PNG of the whole page (beyond the viewport) named NN-name.png in the artefacts folder."""
        self.shots += 1
        target = ARTEFACTS / f"{self.shots:02d}-{re.sub(r'[^A-Za-z0-9_.-]+', '-', name).strip('-')}.png"
        try:
            metrics = self.driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
            size = metrics.get("cssContentSize") or metrics["contentSize"]
            width, height = max(1, int(size["width"])), max(1, min(int(size["height"]), 10000))
            data = self.driver.execute_cdp_cmd("Page.captureScreenshot", {
                "format": "png", "captureBeyondViewport": True,
                "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}})["data"]
            target.write_bytes(base64.b64decode(data))
        except Exception:
            self.driver.save_screenshot(str(target))

    def visit(self, path, name, expect_path=None):
        """Checks the page answers 200 to plain HTTP with the browser's cookies (so a missing page fails
        as "GET … returned 404", not as a missing element), then opens it in the browser."""
        answer = http("GET", path, cookies=self.cookies())
        if answer.status == 303:
            require(expect_path is not None and answer.location_path() == expect_path,
                    f"GET {path} returned 303 to {answer.headers.get('Location')!r}")
        else:
            require(answer.status == 200, f"GET {path} returned {describe(answer)}")
        self.driver.get(BASE + path)
        if expect_path:
            self.wait_path(expect_path)
        self.shot(name)

    def wait(self, condition, timeout=WAIT, message="timed out"):
        deadline = time.monotonic() + timeout
        last_error = None
        while time.monotonic() < deadline:
            try:
                value = condition()
                if value:
                    return value
            except Exception as error:  # a stale element while the page changes; try again
                last_error = error
            time.sleep(0.1)
        raise Failure(message + (f" (last error: {last_error})" if last_error else ""))

    def wait_path(self, expected, timeout=WAIT):
        self.wait(lambda: self.path() == expected, timeout,
                  f"expected to be on {expected}, the browser is on {self.path()}")

    def one(self, selector, what=None):
        from selenium.webdriver.common.by import By
        found = self.driver.find_elements(By.CSS_SELECTOR, selector)
        require(found, f"{what or selector} is missing on {self.path()}")
        return found[0]

    def all(self, selector):
        from selenium.webdriver.common.by import By
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    # -- session ------------------------------------------------------------------------------------

    # WebDriver's cookie commands only see (and delete) the cookies of the page the browser is on, so a
    # Path=/console cookie is invisible from /healthz; DevTools sees the browser's whole cookie store.

    def browser_cookies(self):
        """name → cookie (DevTools fields: value, path, httpOnly, sameSite, expires…) sent to /console/."""
        found = self.driver.execute_cdp_cmd("Network.getCookies", {"urls": [BASE + "/console/"]})["cookies"]
        return {cookie["name"]: cookie for cookie in found}

    def cookies(self):
        return {name: cookie["value"] for name, cookie in self.browser_cookies().items()}

    def session(self):
        """The session cookie's value, or None."""
        cookie = self.browser_cookies().get(SESSION_COOKIE)
        return cookie["value"] if cookie and cookie["value"] else None

    def sign_out_browser(self):
        self.driver.execute_cdp_cmd("Network.clearBrowserCookies", {})

    def sign_in(self):
        """Signs the browser in through the form (for tests that need a session)."""
        if self.session():
            probe = http("GET", "/console/templates", cookies=self.cookies())
            if probe.status == 200:
                return
        self.visit("/console/sign-in", "sign-in")
        token = self.one("#token", "the token input (#token)")
        token.clear()
        token.send_keys(ADMIN_TOKEN)
        self.one("form#sign-in button[type=submit]", "the Sign in button").click()
        self.wait_path("/console/templates")
        require(self.session(), "signed in, but there is no passwright_console cookie")

    # -- the pass the tests share -------------------------------------------------------------------

    def issued_pass(self):
        """The pass the console tests share, issued on first use (after the upload test, so no roll-out
        of the uploaded version pushes to its device while a test counts pushes)."""
        if not self.pass_info:
            self.pass_info = issue_pass("BROWSER")
        return self.pass_info

    def pass_path(self):
        return f"/console/passes/{PASS_TYPE}/{self.issued_pass()['serial']}"


def order_path():
    """A new order from the sample shop template (through the REST API), and its console page."""
    identifier = "BROWSER-" + secrets.token_hex(4).upper()
    created = api("POST", "/api/v1/orders", {"template": "shop", "orderIdentifier": identifier, "order": {"orderNumber": "4711"}})
    require(created.status == 201, f"POST /api/v1/orders returned {describe(created)}")
    return f"/console/orders/{created.json()['orderTypeIdentifier']}/{identifier}"


def issue_pass(prefix):
    """Issues a loyalty pass through the REST API and registers a device for it through the Wallet web
    service protocol, with the pass's own authenticationToken (read from the signed pass)."""
    serial = f"{prefix}-" + secrets.token_hex(4).upper()
    issued = api("POST", "/api/v1/passes", {
        "template": TEMPLATE, "serialNumber": serial,
        "data": {"member": {"id": "M-4711", "name": "Ada Okafor"}, "points": 1280, "tier": "Gold"}})
    require(issued.status == 201, f"POST /api/v1/passes returned {describe(issued)}")
    require(issued.json().get("passTypeIdentifier") == PASS_TYPE, f"issued for another pass type: {issued.text}")
    pkpass = api("GET", f"/api/v1/passes/{PASS_TYPE}/{serial}/pkpass")
    require(pkpass.status == 200, f"GET …/pkpass returned {describe(pkpass)}")
    with zipfile.ZipFile(io.BytesIO(pkpass.body)) as archive:
        token = json.loads(archive.read("pass.json"))["authenticationToken"]
    device = secrets.token_hex(16)  # a device library identifier: opaque, its first 8 characters unique here
    push_token = secrets.token_hex(32)
    registered = http("POST", f"/wallet/v1/devices/{device}/registrations/{PASS_TYPE}/{serial}",
                      json.dumps({"pushToken": push_token}).encode(),
                      {"Authorization": f"ApplePass {token}", "Content-Type": "application/json"})
    require(registered.status == 201, f"registering a device returned {describe(registered)}")
    stored = api("GET", f"/api/v1/passes/{PASS_TYPE}/{serial}")
    require(stored.status == 200 and stored.json().get("registeredDevices") == 1,
            f"the API does not show the registered device: {describe(stored)}")
    return {"serial": serial, "token": token, "device": device, "push_token": push_token}


def stored_data(serial):
    answer = api("GET", f"/api/v1/passes/{PASS_TYPE}/{serial}")
    require(answer.status == 200, f"GET /api/v1/passes/…/{serial} returned {describe(answer)}")
    return answer.json()["data"]


def current_template_version():
    answer = api("GET", f"/api/v1/templates/{TEMPLATE}")
    require(answer.status == 200, f"GET /api/v1/templates/{TEMPLATE} returned {describe(answer)}")
    return answer.json()["currentVersion"]


def apns_pushes(push_token):
    """The stand-in's recorded requests to one device token."""
    found = []
    if APNS_RECORD and os.path.exists(APNS_RECORD):
        with open(APNS_RECORD, encoding="utf-8") as file:
            for line in file:
                if not line.endswith("\n"):
                    break  # still being written
                entry = json.loads(line)
                if entry.get("path") == f"/3/device/{push_token}":
                    found.append(entry)
    return found


# ---------------------------------------------------------------------------------------------------
# The tests, in order.

def test_harness_push_reaches_standin(run):
    """The harness itself: a REST PATCH of the shared pass makes the server push to the APNs stand-in (so
    a missing push later is the console's fault, not the set-up's). Needs no console."""
    info = issue_pass("HARNESS")
    require(APNS_RECORD, "BROWSER_APNS_RECORD is not set (run scripts/browser.sh)")
    before = len(apns_pushes(info["push_token"]))
    patched = api("PATCH", f"/api/v1/passes/{PASS_TYPE}/{info['serial']}", {"data": {"member": {"id": "M-4712"}}})
    require(patched.status == 200, f"PATCH /api/v1/passes/…/{info['serial']} returned {describe(patched)}")
    pushes = run.wait(lambda: apns_pushes(info["push_token"])[before:], timeout=WAIT,
                      message="the APNs stand-in received no push within 10 s of a REST PATCH")
    require(pushes[0]["headers"].get("apns-topic") == PASS_TYPE, f"the push's apns-topic is {pushes[0]['headers'].get('apns-topic')!r}")
    require(f"UID={PASS_TYPE}" in (pushes[0].get("client_subject") or ""), "the push was not sent with the pass type's certificate")


def test_sign_in_page(run):
    """No session → redirected to sign-in; a wrong token shows .error and stays signed out; the right
    token lands on /console/templates."""
    driver = run.driver
    run.sign_out_browser()

    answer = http("GET", "/console/passes")
    require(answer.status == 303, f"GET /console/passes without a session returned {describe(answer)}, not 303")
    require(answer.location_path() == "/console/sign-in",
            f"GET /console/passes without a session redirects to {answer.headers.get('Location')!r}")
    page = http("GET", "/console/sign-in")
    require(page.status == 200, f"GET /console/sign-in returned {describe(page)}")

    driver.get(BASE + "/console/passes")
    run.wait_path("/console/sign-in")
    run.shot("sign-in")
    form = run.one("form#sign-in", "form#sign-in")
    require((form.get_attribute("method") or "").lower() == "post", "form#sign-in is not method=post")
    require(urllib.parse.urlparse(form.get_attribute("action") or "").path == "/console/sign-in",
            f"form#sign-in posts to {form.get_attribute('action')!r}")
    token = run.one("input#token[name=token]", "input#token (name=token)")
    require(token.get_attribute("type") == "password", "the token input is not type=password")
    label = run.one("label[for=token]", "label[for=token]")
    require(label.text.strip() == "Admin token", f"the token's label says {label.text!r}")
    csrf = run.one("form#sign-in input[type=hidden][name=csrf]", "the sign-in form's hidden csrf input")
    require(len(csrf.get_attribute("value") or "") >= 16, "the sign-in csrf value is empty or short")

    # A wrong token: the 401 page with an alert, still signed out.
    token.send_keys("wrong-" + secrets.token_urlsafe(16))
    run.one("form#sign-in button[type=submit]", "the Sign in button").click()
    error = run.wait(lambda: [e for e in run.all("p.error") if e.is_displayed()], message="no visible p.error after a wrong token")[0]
    run.shot("sign-in-wrong-token")
    require(error.get_attribute("role") == "alert", "the sign-in error is not role=alert")
    require(run.path() == "/console/sign-in", f"after a wrong token the browser is on {run.path()}")
    require(run.session() is None, "a wrong token set a passwright_console cookie")
    still_out = http("GET", "/console/passes", cookies=run.cookies())
    require(still_out.status == 303 and still_out.location_path() == "/console/sign-in",
            f"after a wrong token GET /console/passes returned {describe(still_out)}")

    # The same with plain HTTP, to see the status: 401.
    pre = http("GET", "/console/sign-in")
    pre_cookies = cookies_from(pre)
    pre_csrf = hidden_csrf(pre.text)
    wrong = form_post("/console/sign-in", {"token": "wrong-" + secrets.token_hex(8), "csrf": pre_csrf}, pre_cookies)
    require(wrong.status == 401, f"a wrong token is answered {describe(wrong)}, not 401")
    require('class="error"' in wrong.text, "the 401 page has no class=\"error\"")

    # The right token.
    token = run.one("#token", "the token input (#token)")
    token.clear()
    token.send_keys(ADMIN_TOKEN)
    run.one("form#sign-in button[type=submit]", "the Sign in button").click()
    run.wait_path("/console/templates")
    run.shot("templates-after-sign-in")
    require(run.session(), "signed in, but there is no passwright_console cookie")


def cookies_from(answer):
    """name → value of every Set-Cookie in an answer."""
    jar = {}
    for header in answer.headers.get_all("Set-Cookie") or []:
        name, _, rest = header.partition("=")
        jar[name.strip()] = rest.split(";", 1)[0]
    return jar


def hidden_csrf(html):
    match = re.search(r'<input[^>]*name="csrf"[^>]*>', html)
    require(match, "no csrf input in the page")
    value = re.search(r'value="([^"]*)"', match.group(0))
    require(value, "the csrf input has no value")
    return value.group(1)


def test_cookie_flags(run):
    """passwright_console is HttpOnly, SameSite=Strict, Path=/console, 64 hex, 8 h; not in document.cookie."""
    run.sign_in()
    run.visit("/console/templates", "templates")  # selenium sees the Path=/console cookie from here
    cookie = run.driver.get_cookie(SESSION_COOKIE)
    require(cookie, "selenium sees no passwright_console cookie on /console/templates after signing in")
    require(cookie.get("httpOnly") is True, f"the session cookie is not HttpOnly: {cookie}")
    require(cookie.get("sameSite") == "Strict", f"the session cookie is SameSite={cookie.get('sameSite')}, not Strict")
    require(cookie.get("path") == "/console", f"the session cookie's path is {cookie.get('path')!r}, not /console")
    require(re.fullmatch(r"[0-9a-f]{64}", cookie.get("value", "")), "the session cookie's value is not 64 hex digits")
    expiry = cookie.get("expiry")
    require(expiry and abs(expiry - (time.time() + 28800)) < 300, f"the session cookie expires at {expiry}, not in 8 hours")
    seen = run.js("return document.cookie;") or ""
    names = [part.split("=", 1)[0].strip() for part in seen.split(";") if part.strip()]
    require(SESSION_COOKIE not in names and cookie["value"] not in seen,
            "document.cookie shows the session cookie")

    # The header itself, from a sign-in over plain HTTP.
    pre = http("GET", "/console/sign-in")
    require(pre.status == 200, f"GET /console/sign-in returned {describe(pre)}")
    signed = form_post("/console/sign-in", {"token": ADMIN_TOKEN, "csrf": hidden_csrf(pre.text)}, cookies_from(pre))
    require(signed.status == 303 and signed.location_path() == "/console/templates",
            f"signing in over HTTP returned {describe(signed)} to {signed.headers.get('Location')!r}")
    header = next((h for h in signed.headers.get_all("Set-Cookie") or [] if h.startswith(SESSION_COOKIE + "=")), None)
    require(header, "signing in sent no passwright_console Set-Cookie")
    attributes = {part.strip().split("=", 1)[0].lower(): part.strip() for part in header.split(";")[1:]}
    for expected in ("Path=/console", "HttpOnly", "SameSite=Strict", "Max-Age=28800"):
        name = expected.split("=", 1)[0].lower()
        require(attributes.get(name, "").lower() == expected.lower(), f"the Set-Cookie lacks {expected}: {header.split('=', 1)[0]}=…; {'; '.join(header.split(';')[1:])}")


def template_archive(label):
    """Templates/loyalty as a zip (dotfiles left out), with the Member field's label changed."""
    folder = ROOT / "Templates" / TEMPLATE
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            relative = path.relative_to(folder)
            if path.is_dir() or any(part.startswith(".") for part in relative.parts):
                continue
            data = path.read_bytes()
            if relative.as_posix() == "pass.json":
                document = json.loads(data)
                fields = document["storeCard"]["secondaryFields"]
                member = next(field for field in fields if field["key"] == "member")
                member["label"] = label
                data = json.dumps(document, indent=2).encode()
            archive.writestr(relative.as_posix(), data)
    return buffer.getvalue()


def test_upload_template_version(run):
    """Upload a changed loyalty zip → review page with table.lint (Before / After / What this changes) and
    a preview → Make current → the template page shows the new current version, which the API confirms."""
    run.sign_in()
    before = current_template_version()
    run.visit("/console/templates", "templates")
    run.one(f"table#templates a[href='/console/templates/{TEMPLATE}']", f"a link to /console/templates/{TEMPLATE} in table#templates")

    label = f"{CHANGED_LABEL} {secrets.token_hex(2)}"
    with tempfile.TemporaryDirectory(prefix="passwright-browser-") as folder:
        archive = Path(folder) / f"{TEMPLATE}.zip"
        archive.write_bytes(template_archive(label))
        form = run.one("form#upload", "form#upload")
        require((form.get_attribute("enctype") or "") == "multipart/form-data", "form#upload is not multipart/form-data")
        name = run.one("form#upload input#upload-name[name=name]", "input#upload-name")
        name.clear()
        name.send_keys(TEMPLATE)
        chooser = run.one("form#upload input#upload-archive[type=file][name=archive]", "input#upload-archive (type=file)")
        require(chooser.get_attribute("accept") == ".zip", "input#upload-archive does not accept .zip")
        chooser.send_keys(str(archive))
        button = run.one("form#upload button[type=submit], form#upload button:not([type])", "the upload form's button")
        require(button.text.strip() == "Check upload", f"the upload button says {button.text!r}, not 'Check upload'")
        button.click()
        run.wait(lambda: run.all("table.lint"), message="no table.lint after Check upload")
    run.shot("template-review")
    heading = " ".join(h.text for h in run.all("h1"))
    require(f"Review {TEMPLATE}" in heading, f"the review page's h1 is {heading!r}, not 'Review {TEMPLATE}'")
    headers = [th.text.strip() for th in run.all("table.lint th")][:3]
    require(headers == ["Before", "After", "What this changes"], f"table.lint's headers are {headers}")
    preview = run.one("img.preview", "the uploaded version's img.preview")
    require(preview.get_attribute("alt"), "the review preview has no alt text")
    run.wait(lambda: run.js("return arguments[0].complete && arguments[0].naturalWidth > 0", preview),
             message="the review preview image did not load")
    require(current_template_version() == before, "checking the upload already changed the current version")
    publish = run.one("form#publish", "form#publish (the upload has no stopping finding)")
    require(urllib.parse.urlparse(publish.get_attribute("action")).path == f"/console/templates/{TEMPLATE}/publish",
            f"form#publish posts to {publish.get_attribute('action')!r}")
    run.one("form#publish input[type=hidden][name=archive]", "form#publish's hidden archive")
    run.one("form#publish input[type=hidden][name=csrf]", "form#publish's hidden csrf")
    make_current = run.one("form#publish button", "the Make current button")
    require(make_current.text.strip() == "Make current", f"the publish button says {make_current.text!r}")
    make_current.click()

    run.wait_path(f"/console/templates/{TEMPLATE}")
    run.shot("template-after-publish")
    run.wait(lambda: run.all(".notice"), message="no .notice after Make current")
    after = current_template_version()
    require(after == before + 1, f"the API says version {after} is current, expected {before + 1}")
    version_zip = api("GET", f"/api/v1/templates/{TEMPLATE}/versions/{after}")
    require(version_zip.status == 200, f"GET …/versions/{after} returned {describe(version_zip)}")
    with zipfile.ZipFile(io.BytesIO(version_zip.body)) as stored:
        fields = json.loads(stored.read("pass.json"))["storeCard"]["secondaryFields"]
    require(any(field.get("label") == label for field in fields), "the published version is not the uploaded archive")
    shown = run.js("""
        const main = document.querySelector('main'); if (!main) return null;
        const copy = main.cloneNode(true); copy.querySelectorAll('#versions').forEach(e => e.remove());
        const values = [...copy.querySelectorAll('data')].map(d => d.getAttribute('value'));
        return {values, text: copy.textContent};""")
    require(shown is not None, "the template page has no <main>")
    require(str(after) in shown["values"] or re.search(rf"\bversion\s*{after}\b", shown["text"], re.I),
            f"the template page does not show version {after} as current")
    run.template_version = after


def test_search_finds_issued_pass(run):
    """A pass issued through the REST API, with a device registered through the Wallet protocol, is found
    by its serial in #q (and by a prefix); a query matching nothing shows p.empty; its link opens it."""
    from selenium.webdriver.common.keys import Keys

    info = run.issued_pass()
    run.sign_in()
    serial = info["serial"]
    run.visit("/console/passes", "passes")
    run.one("form#search", "form#search")
    run.one("select#template[name=template]", "select#template")

    def search(query):
        box = run.one("form#search input#q[name=q][type=search]", "input#q (type=search)")
        box.clear()
        box.send_keys(query + Keys.ENTER)
        run.wait(lambda: urllib.parse.parse_qs(urllib.parse.urlparse(run.driver.current_url).query).get("q") == [query],
                 message=f"submitting the search did not load ?q={query}")

    link_selector = f"table#passes a[href='/console/passes/{PASS_TYPE}/{serial}']"
    search(serial)
    run.shot("passes-search")
    link = run.one(link_selector, f"a row for {serial} in table#passes")
    require(link.text.strip() == serial, f"the pass's link says {link.text!r}")
    require(TEMPLATE in link.find_element("xpath", "./ancestor::tr").text, "the pass's row does not name its template")

    search(serial[:-3])
    run.one(link_selector, f"a row for {serial} when searching the prefix {serial[:-3]}")

    search("NO-SUCH-" + secrets.token_hex(6))
    run.shot("passes-search-empty")
    require(not run.all(link_selector), "a search matching nothing still lists the pass")
    empty = run.one("p.empty", "p.empty for a search matching nothing")
    require(empty.text.strip(), "p.empty says nothing")

    search(serial)
    run.one(link_selector, f"a row for {serial} in table#passes").click()
    run.wait_path(f"/console/passes/{PASS_TYPE}/{serial}")
    run.shot("pass")


def image_loaded(run, element):
    return run.js("return arguments[0].complete && arguments[0].naturalWidth > 0", element)


def test_pass_page_edit_and_push(run):
    """Both previews load; one input per placeholder; a Save changes the data (API), the front preview
    and queues a push the stand-in receives; #devices shows the APNs answer; a bad raw JSON is a 422."""
    info = run.issued_pass()
    run.sign_in()
    serial = info["serial"]
    run.visit(run.pass_path(), "pass")
    for side in ("front", "back"):
        image = run.one(f"img.preview.{side}", f"img.preview.{side}")
        source = image.get_attribute("src")
        query = urllib.parse.parse_qs(urllib.parse.urlparse(source).query)
        require(query.get("side") == [side] and query.get("tag"), f"the {side} preview's src is {source!r}")
        run.wait(lambda: image_loaded(run, image), message=f"the {side} preview did not load ({source})")
        require(image.get_attribute("alt"), f"the {side} preview has no alt text")

    names = {e.get_attribute("name") for e in run.all("form#edit input[name^='data.']")}
    require(names == {f"data.{p}" for p in PLACEHOLDERS}, f"the edit form's data inputs are {sorted(names)}")
    field = run.one("form#edit input[name='data.member.name']", "an input for data.member.name")
    require(field.get_attribute("id") == "field-member.name", f"the member.name input's id is {field.get_attribute('id')!r}")
    label = run.one("label[for='field-member.name']", "a label for field-member.name")
    require(label.text.strip() == "member.name", f"the member.name label says {label.text!r}")
    require(field.get_attribute("value") == "Ada Okafor", f"the member.name input starts as {field.get_attribute('value')!r}")
    raw = run.one("form#edit textarea#raw[name=raw]", "textarea#raw")
    require(json.loads(raw.get_attribute("value"))["member"]["name"] == "Ada Okafor", "textarea#raw is not the pass's data")
    for name in ("locations", "relevantDates"):
        run.one(f"form#edit textarea[name={name}]", f"textarea[name={name}]")
    run.one("form#edit input[type=checkbox][name=voided]", "the voided checkbox")
    run.one("form#edit input[type=hidden][name=csrf]", "the edit form's csrf")

    front_before = run.one("img.preview.front").get_attribute("src")
    pushed_before = len(apns_pushes(info["push_token"]))
    field.clear()
    field.send_keys("Grace Hopper")
    save = run.one("form#edit button[type=submit], form#edit button:not([type])", "the Save button")
    require(save.text.strip() == "Save", f"the edit button says {save.text!r}")
    save.click()
    notice = run.wait(lambda: [e for e in run.all(".notice") if e.is_displayed()], message="no .notice after Save")[0]
    run.shot("pass-saved")
    require(run.path() == run.pass_path(), f"after Save the browser is on {run.path()}")
    match = re.search(r"Saved: (\d+) push(es)? queued", notice.text)
    require(match and match.group(1) == "1", f"the notice says {notice.text!r}, not 'Saved: 1 push(es) queued'")
    require(stored_data(serial)["member"]["name"] == "Grace Hopper", "the API does not show the saved name")
    front = run.one("img.preview.front")
    require(front.get_attribute("src") != front_before, "the front preview's src did not change after Save")
    run.wait(lambda: image_loaded(run, run.one("img.preview.front")), message="the new front preview did not load")

    # The push: the stand-in must receive it, and the page must show its answer (reload, up to ~10 s).
    pushes = run.wait(lambda: apns_pushes(info["push_token"])[pushed_before:], timeout=WAIT,
                      message="the APNs stand-in received no push for the device within 10 s") if APNS_RECORD else []
    if pushes:
        require(pushes[0]["headers"].get("apns-topic") == PASS_TYPE, f"the push's apns-topic is {pushes[0]['headers'].get('apns-topic')!r}")
    short = info["device"][:8]
    deadline = time.monotonic() + WAIT
    row_text = ""
    while True:
        rows = [row.text for row in run.all("table#devices tr") if short in row.text]
        row_text = rows[0] if rows else ""
        if re.search(r"\b200\b", row_text):
            break
        if time.monotonic() > deadline:
            break
        time.sleep(0.5)
        run.driver.refresh()
    run.shot("pass-devices")
    require(row_text, f"table#devices has no row for the device ({short}…)")
    if pushes or not APNS_RECORD:
        require(re.search(r"\b200\b", row_text), f"the stand-in answered 200, but #devices shows {row_text!r} after 10 s")
    else:
        require(re.search(r"\byes\b", row_text, re.I), f"#devices shows neither an answer 200 nor a queued push: {row_text!r}")
    history = " ".join(row.text for row in run.all("table#history tr"))
    require("data.member" in history, "table#history does not mention the data.member change")

    # Every problem is listed and nothing is stored: raw data that is not JSON.
    raw = run.one("form#edit textarea#raw", "textarea#raw")
    raw.clear()
    raw.send_keys("{not json")
    run.one("form#edit button[type=submit], form#edit button:not([type])", "the Save button").click()
    run.wait(lambda: [e for e in run.all("p.error") if e.is_displayed()], message="no p.error after saving raw data that is not JSON")
    run.shot("pass-invalid-raw")
    require(stored_data(serial)["member"]["name"] == "Grace Hopper", "invalid raw data changed the stored pass")


def test_erase_from_pass_page(run):
    """A pass page's Data rights: the JSON download (with the session) holds the holder's data; a wrong
    serial number typed erases nothing (p.error); the right one erases it (a .notice, the API shows no
    name, the pass voided), the page then says when and has no editor, and passes the accessibility
    checks in that state."""
    info = issue_pass("ERASE")
    run.sign_in()
    path = f"/console/passes/{PASS_TYPE}/{info['serial']}"
    run.visit(path, "erase-before")
    link = run.one("a[href$='/export']", "the Download everything kept link")
    download = http("GET", urllib.parse.urlparse(link.get_attribute("href")).path, cookies=run.cookies())
    require(download.status == 200 and "Ada Okafor" in download.text, f"the export download returned {describe(download)}")
    require("attachment" in (download.headers.get("Content-Disposition") or ""), "the export is not an attachment")

    confirm = run.one("form#erase input#confirm", "the erase form's confirmation input")
    confirm.send_keys(info["serial"][:-1])
    run.one("form#erase button.danger", "the Erase button").click()
    run.wait(lambda: [e for e in run.all("p.error") if e.is_displayed()], message="no p.error after a wrong serial number")
    require(stored_data(info["serial"])["member"]["name"] == "Ada Okafor", "a wrong confirmation erased the pass")

    run.one("form#erase input#confirm", "the confirmation input").send_keys(info["serial"])
    run.one("form#erase button.danger", "the Erase button").click()
    notice = run.wait(lambda: [e for e in run.all(".notice") if e.is_displayed()], message="no .notice after erasing")[0]
    run.shot("erase-after")
    require(notice.text.startswith("Erased"), f"the notice says {notice.text!r}")
    stored = api("GET", f"/api/v1/passes/{PASS_TYPE}/{info['serial']}").json()
    require("Ada Okafor" not in json.dumps(stored) and stored.get("voided") is True, f"the API still shows the holder: {stored}")
    run.one("#erased", "the erased note")
    require(not run.all("form#edit") and not run.all("form#erase"), "an erased pass still offers the editor or the erase form")
    problems = accessibility_problems(run, path, "erased-pass")
    require(not problems, "\n".join(problems))


SIGNED_IN_PAGES = ["/console/templates", f"/console/templates/{TEMPLATE}", "/console/order-templates/shop", "/console/passes",
                   "PASS", "/console/orders", "ORDER", "/console/push", "/console/devices", "/console/identities", "/console/webhooks",
                   "/console/jobs", "JOB", "/console/keys", "/console/audit", "/console/dashboard", "/console/users"]


def page_paths(run):
    paths = []
    for path in SIGNED_IN_PAGES:
        if path == "PASS":
            paths.append(run.pass_path())
        elif path == "ORDER":
            paths.append(order_path())
        elif path == "JOB":
            if run.job_path:
                paths.append(run.job_path)
        else:
            paths.append(path)
    return paths


def test_webhook_subscription(run):
    """Subscribe an endpoint with the form on /console/webhooks: its whsec_ secret is shown once, the API
    lists it with the chosen types; a bad URL is a 422 naming it; Remove takes it away."""
    run.sign_in()
    run.visit("/console/webhooks", "webhooks")
    run.one("form#subscribe input#webhook-url", "input#webhook-url").send_keys("http://127.0.0.1:9/console-hook")
    run.one("form#subscribe input#webhook-description", "input#webhook-description").send_keys("From the console")
    run.one("form#subscribe input#webhook-types", "input#webhook-types").send_keys("pass.issued, job.finished")
    run.one("form#subscribe button[type=submit]", "the Subscribe button").click()
    run.wait(lambda: run.all("#new-secret code"), message="no secret shown after subscribing")
    run.shot("webhook-subscribed")
    secret = run.one("#new-secret code", "the new secret").text.strip()
    require(secret.startswith("whsec_"), f"the shown secret is {secret[:10]!r}…")
    listed = [hook for hook in api("GET", "/api/v1/webhooks").json()["webhooks"] if hook["url"] == "http://127.0.0.1:9/console-hook"]
    require(len(listed) == 1 and listed[0]["types"] == ["job.finished", "pass.issued"], f"the API lists {listed}")
    run.driver.get(BASE + "/console/webhooks")
    require(secret not in run.driver.page_source, "the secret is shown again on a later visit")
    bad = form_post("/console/webhooks", {"url": "ftp://example.com/x", "csrf": hidden_csrf(run.driver.page_source)}, run.cookies())
    require(bad.status == 422 and "error" in bad.text, f"a bad URL answered {describe(bad)}")
    hook = listed[0]["id"]
    run.one(f"form[action='/console/webhooks/{hook}/remove'] button", f"the Remove button of {hook}").click()
    run.wait(lambda: run.all(".notice"), message="no notice after Remove")
    require(all(h["id"] != hook for h in api("GET", "/api/v1/webhooks").json()["webhooks"]), "the endpoint is still listed after Remove")


def test_api_keys(run):
    """Create a key on /console/keys with two scopes: its pw_ key is shown once and works against the API
    for its scope only; Revoke stops it."""
    run.sign_in()
    run.visit("/console/keys", "keys")
    run.one("form#create-key input#key-name", "input#key-name").send_keys("browser test")
    run.one("input#scope-templates\\:read", "the templates:read checkbox").click()
    run.one("input#scope-events\\:read", "the events:read checkbox").click()
    run.one("form#create-key button[type=submit]", "the Create key button").click()
    run.wait(lambda: run.all("#new-key code"), message="no key shown after Create key")
    run.shot("key-created")
    key = run.one("#new-key code", "the new key").text.strip()
    require(key.startswith("pw_"), f"the shown key is {key[:6]!r}…")

    def with_key(path):
        request = urllib.request.Request(BASE + path, headers={"Authorization": f"Bearer {key}"})
        try:
            with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT) as answer:
                return answer.status
        except urllib.error.HTTPError as error:
            return error.code
    require(with_key("/api/v1/templates") == 200, "the new key cannot read templates")
    require(with_key("/api/v1/keys") == 403, "the new key can list keys without keys:manage")
    key_id = key.split("_")[1]
    run.driver.get(BASE + "/console/keys")
    require(key not in run.driver.page_source, "the key is shown again on a later visit")
    run.one(f"form[action='/console/keys/{key_id}/revoke'] button", f"the Revoke button of {key_id}").click()
    run.wait(lambda: run.all(".notice"), message="no notice after Revoke")
    time.sleep(2.5)  # revocation reaches every instance's cache within two seconds
    require(with_key("/api/v1/templates") == 401, "the revoked key still works")


def test_audit_trail(run):
    """/console/audit shows who changed what: this session's sign-in and a pass issued through the API, each
    with its actor, source and address and the names of what changed (no value); the filter form narrows it,
    and a row's target links to that target's history."""
    issue_pass("AUDIT")
    run.sign_in()
    run.visit("/console/audit", "audit")
    table = run.one("table#audit", "table#audit").text
    require("console.sign-in" in table, "the sign-in is not in the audit trail")
    require("pass.issue" in table and "data.member" in table, "the issued pass is not in the audit trail with its changed keys")
    require("Ada Okafor" not in run.driver.page_source, "the audit page shows a holder's value")
    run.one("form#audit-filter input#audit-action", "input#audit-action").send_keys("pass.issue")
    run.one("form#audit-filter button[type=submit]", "the Show button").click()
    run.wait(lambda: "action=pass.issue" in run.driver.current_url, message="the filter did not narrow the page")
    actions = [cell.text for cell in run.all("table#audit tbody tr td:nth-child(5)")]
    require(actions and set(actions) == {"pass.issue"}, f"filtered by pass.issue, the page lists {actions}")
    link = run.one(f"table#audit a[href*='AUDIT']", "the AUDIT pass's target link")
    link.click()
    run.wait(lambda: "target=" in run.driver.current_url, message="the target link did not narrow the page")
    targets = {cell.text for cell in run.all("table#audit tbody tr td:nth-child(6)")}
    require(len(targets) == 1 and "/AUDIT-" in next(iter(targets)), f"the target link shows {targets}")
    run.shot("audit-trail")


DASHBOARD_SERIES_PER_PERIOD = {
    "installed": lambda period: period["counts"]["installed"],
    "removed": lambda period: period["counts"]["removed"],
    "pushesSent": lambda period: period["counts"]["pushesSent"],
    "pushesFailed": lambda period: period["counts"]["pushesFailed"],
    "pageViews": lambda period: period["counts"]["pageViews"],
    "downloads": lambda period: period["counts"]["downloads"],
    "activePasses": lambda period: period["activePasses"],
    "devices": lambda period: period["devices"],
}

# The page reads every drawn value in one script: [series, period or null, name or null, value].
DRAWN_VALUES_JS = r"""
return [...document.querySelectorAll('main svg [data-value]')].map(e => [
  e.getAttribute('data-series'), e.getAttribute('data-period'), e.getAttribute('data-name'), Number(e.getAttribute('data-value'))]);
"""


def dashboard_query():
    """The last seven UTC days, of the loyalty template, by day."""
    now = time.time()
    to = time.strftime("%Y-%m-%d", time.gmtime(now))
    start = time.strftime("%Y-%m-%d", time.gmtime(now - 6 * 86400))
    return urllib.parse.urlencode({"template": TEMPLATE, "from": start, "to": to, "interval": "day"})


def analytics(query):
    answer = api("GET", f"/api/v1/analytics?{query}")
    require(answer.status == 200, f"GET /api/v1/analytics?{query} returned {describe(answer)}")
    return answer.json()


def test_dashboard(run):
    """After scripted activity (two passes installed on a device, one removed, a push sent), /console/dashboard
    for the last seven days of the loyalty template draws exactly the numbers GET /api/v1/analytics answers for
    the same filter: every data-value of its SVGs, the figures at the top and the template version marks; each
    chart has a name, a description and a table; and the page passes the accessibility checks (axe-core, keyboard,
    contrast in light and dark, target size, labels, reflow at 320 px)."""
    # Activity: two installs, one removal (its only device unregisters), one push the stand-in accepts.
    kept = issue_pass("DASH")
    gone = issue_pass("DASH")
    unregistered = http("DELETE", f"/wallet/v1/devices/{gone['device']}/registrations/{PASS_TYPE}/{gone['serial']}",
                        headers={"Authorization": f"ApplePass {gone['token']}"})
    require(unregistered.status == 200, f"unregistering a device returned {describe(unregistered)}")
    patched = api("PATCH", f"/api/v1/passes/{PASS_TYPE}/{kept['serial']}", {"data": {"points": 1300}})
    require(patched.status == 200, f"PATCH of the kept pass returned {describe(patched)}")
    run.wait(lambda: apns_pushes(kept["push_token"]), timeout=WAIT, message="the stand-in received no push for the kept pass")

    query = dashboard_query()
    path = f"/console/dashboard?{query}"
    run.sign_in()
    # The push's outcome is counted when APNs answers: wait until the API has settled, then read it on both
    # sides of the page's load and use the page only when both readings agree (D5).
    for _ in range(5):
        before = analytics(query)
        run.visit(path, "dashboard")
        drawn = run.js(DRAWN_VALUES_JS)
        figures = {name: run.js("const e = document.querySelector(arguments[0]); return e ? e.getAttribute('value') : null;",
                                f"#figure-{name} data") for name in ("active-passes", "devices", "installed", "removed", "pushes-failed")}
        markers = run.js("return [...document.querySelectorAll('#chart-installs g.marker')].map(e => [e.getAttribute('data-version'), e.getAttribute('data-day')]);")
        after = analytics(query)
        if before == after:
            break
        time.sleep(1)
    else:
        raise Failure("GET /api/v1/analytics kept changing while the dashboard loaded")
    report = after
    require(report["totals"]["installed"] >= 2 and report["totals"]["removed"] >= 1,
            f"the API does not count the scripted installs and removal: {report['totals']}")

    # Every drawn value is the API's, and every non-zero series the API has is drawn.
    periods = {period["start"]: period for period in report["periods"]}
    mismatches = []
    seen = set()
    for series, period, name, value in drawn:
        if series == "pushFailures":
            expected = report["pushFailuresByReason"].get(name)
        elif series in DASHBOARD_SERIES_PER_PERIOD and period in periods:
            expected = DASHBOARD_SERIES_PER_PERIOD[series](periods[period])
        else:
            mismatches.append(f"{series} at {period or name} is not in the API's answer")
            continue
        seen.add((series, period or name))
        if value != expected:
            mismatches.append(f"{series} at {period or name}: drawn {value}, the API says {expected}")
    for series, read in DASHBOARD_SERIES_PER_PERIOD.items():
        if any(read(period) for period in report["periods"]):
            missing = [start for start, period in periods.items() if (series, start) not in seen]
            if missing:
                mismatches.append(f"{series} is not drawn for {missing}")
    for reason, count in report["pushFailuresByReason"].items():
        if count and ("pushFailures", reason) not in seen:
            mismatches.append(f"the push failure reason {reason} is not drawn")
    require(not mismatches, f"{len(mismatches)} differences: " + "; ".join(mismatches[:15]))
    require(any(series == "installed" for series, *_ in drawn), "the installs chart draws nothing")

    # The figures at the top are the API's totals and current counts (D3).
    wanted = {"active-passes": report["activePasses"], "devices": report["devices"], "installed": report["totals"]["installed"],
              "removed": report["totals"]["removed"], "pushes-failed": report["totals"]["pushesFailed"]}
    wrong = {name: (figures[name], str(value)) for name, value in wanted.items() if figures[name] != str(value)}
    require(not wrong, f"the figures (page, API) differ: {wrong}")

    # A version published in the range is marked on the installs chart at its day (D4).
    wanted_marks = sorted([str(mark["version"]), mark["day"]] for mark in report["versions"])
    require(sorted(markers) == wanted_marks, f"the version marks are {sorted(markers)}, the API's versions {wanted_marks}")

    # Each chart drawn: named and described, with its numbers as a table (caption, header cells).
    for chart in run.all("main section.chart"):
        chart_id = chart.get_attribute("id")
        svgs = chart.find_elements("css selector", "svg[role=img]")
        if not svgs:
            require("Nothing yet" in chart.text, f"#{chart_id} has neither a picture nor 'Nothing yet'")
            continue
        svg = svgs[0]
        title = run.js("const t = document.getElementById(arguments[0]); return t ? t.textContent : '';",
                       svg.get_attribute("aria-labelledby") or "")
        description = run.js("const d = document.getElementById(arguments[0]); return d ? d.textContent : '';",
                             svg.get_attribute("aria-describedby") or "")
        require(title.strip() and description.strip(), f"#{chart_id}'s picture has no title or description")
        require(chart.find_elements("css selector", "details table caption")
                and chart.find_elements("css selector", "details table th[scope=col]"),
                f"#{chart_id} has no table alternative with a caption and column headers")

    # The same filter in the form's fields.
    fields = urllib.parse.parse_qs(query)
    for name in ("from", "to"):
        value = run.one(f"form#dashboard-filter input[name={name}]").get_attribute("value")
        require(value == fields[name][0], f"the form's {name} is {value!r}, the page was opened for {fields[name][0]}")

    problems = accessibility_problems(run, path, "a11y-dashboard")
    require(not problems, f"{len(problems)} problems: " + "; ".join(problems[:25]))


def test_bulk_upload(run):
    """Upload a JSON Lines file on /console/jobs: the upload's progress bar fills, the job's page opens and
    reloads until the job is completed, its progress bar is full, the bad line is listed with its errors,
    and the API counts the same."""
    run.sign_in()
    run.visit("/console/jobs", "jobs")
    serials = [f"WEB-{secrets.token_hex(3)}-{i}" for i in range(60)]
    lines = [json.dumps({"serialNumber": serial, "member": {"id": f"W{i}", "name": f"Web {i}"}, "points": i, "tier": "Gold"})
             for i, serial in enumerate(serials)]
    lines[41] = json.dumps({"serialNumber": serials[41], "points": 1})  # no member: the template cannot fill its name
    with tempfile.TemporaryDirectory(prefix="passwright-browser-") as folder:
        records = Path(folder) / "members.jsonl"
        records.write_text("\n".join(lines) + "\n")
        form = run.one("form#bulk-upload", "form#bulk-upload")
        require((form.get_attribute("enctype") or "") == "multipart/form-data", "form#bulk-upload is not multipart/form-data")
        run.one("select#bulk-template option[value=loyalty]", "the loyalty option of select#bulk-template").click()
        run.one("form#bulk-upload input#bulk-file[type=file]", "input#bulk-file").send_keys(str(records))
        run.one("form#bulk-upload button[type=submit]", "the upload button").click()
        run.wait(lambda: run.path().startswith("/console/jobs/job_"), message="the job's page did not open after the upload")
    run.job_path = run.path()
    run.wait(lambda: "completed" in run.one("dl#job", "dl#job").text, timeout=30, message="the job did not complete on its page")
    run.shot("job-completed")
    progress = run.one("progress#job-progress", "progress#job-progress")
    require(progress.get_attribute("value") == progress.get_attribute("max") == "60",
            f"the finished job's progress is {progress.get_attribute('value')} of {progress.get_attribute('max')}")
    failed = [row.text for row in run.all("table#failed tbody tr")]
    require(len(failed) == 1 and failed[0].startswith("42") and "data.member" in failed[0], f"table#failed lists {failed}")
    job = api("GET", "/api/v1/jobs/" + run.job_path.rsplit("/", 1)[1]).json()
    require(job["issued"] == 59 and job["failed"] == 1 and job["actor"] == "console", f"the API says {job}")
    bundle = http("GET", run.job_path + "/bundle?part=1", cookies=run.cookies())
    require(bundle.status == 200 and zipfile.ZipFile(io.BytesIO(bundle.body)).namelist()[0] == "pass-1.pkpass",
            f"the first bundle link answered {describe(bundle)}")


def test_security(run):
    """CSRF on the edit form and on sign-out, assets behind the session, the contract's CSP and headers
    on every page, no inline script or style, and no secret in any page."""
    info = run.issued_pass()
    run.sign_in()
    session = run.session()
    jar = {SESSION_COOKIE: session}
    serial = info["serial"]
    path = run.pass_path()
    problems = []

    def expect(condition, reason):
        if not condition:
            problems.append(reason)

    before = stored_data(serial)["member"]["name"]
    forged = form_post(path, {"data.member.name": "Forged Name"}, jar)
    expect(forged.status == 403, f"POST {path} without csrf returned {forged.status}, not 403")
    wrong = form_post(path, {"data.member.name": "Forged Name", "csrf": secrets.token_hex(16)}, jar)
    expect(wrong.status == 403, f"POST {path} with a wrong csrf returned {wrong.status}, not 403")
    anonymous = form_post(path, {"data.member.name": "Forged Name"})
    expect(anonymous.status == 403, f"POST {path} without a session returned {anonymous.status}, not 403")
    expect(stored_data(serial)["member"]["name"] == before, "a forged POST changed the pass")
    signout_forged = form_post("/console/sign-out", {}, jar)
    expect(signout_forged.status == 403, f"POST /console/sign-out without csrf returned {signout_forged.status}")
    expect(http("GET", "/console/templates", cookies=jar).status == 200, "the session no longer works after a forged sign-out")

    # The positive control: the same post with the page's csrf is accepted, so the 403s were the csrf's.
    run.visit(path, "pass-for-csrf")
    csrf = run.one("form#edit input[name=csrf]", "the edit form's csrf").get_attribute("value")
    fields = {e.get_attribute("name"): e.get_attribute("value")
              for e in run.all("form#edit input[name^='data.']")}
    fields.update({"data.member.name": "Csrf Control", "csrf": csrf,
                   "raw": run.one("form#edit textarea#raw").get_attribute("value"),
                   "locations": run.one("form#edit textarea[name=locations]").get_attribute("value"),
                   "relevantDates": run.one("form#edit textarea[name=relevantDates]").get_attribute("value")})
    accepted = form_post(path, fields, jar)
    expect(accepted.status == 303, f"POST {path} with the page's csrf returned {accepted.status}, not 303")
    expect(stored_data(serial)["member"]["name"] == "Csrf Control", "a POST with the right csrf did not save")

    script_anonymous = http("GET", "/console/assets/console.js")
    expect(script_anonymous.status in (303, 403), f"GET /console/assets/console.js without a cookie returned {script_anonymous.status}")
    script = http("GET", "/console/assets/console.js", cookies=jar)
    expect(script.status == 200 and "javascript" in script.headers.get("Content-Type", ""),
           f"GET /console/assets/console.js with a session returned {script.status} {script.headers.get('Content-Type')}")
    style = http("GET", "/console/assets/console.css")
    expect(style.status == 200 and "text/css" in style.headers.get("Content-Type", ""),
           f"GET /console/assets/console.css (needed by sign-in) returned {style.status} {style.headers.get('Content-Type')}")

    expected_csp = directives(CONTRACT_CSP)
    secrets_in_pages = {"the admin token": ADMIN_TOKEN, "the session cookie": session,
                        "the pass's authenticationToken": info["token"], "the full device id": info["device"],
                        "the device's push token": info["push_token"]}
    for page in ["/console/sign-in"] + page_paths(run):
        answer = http("GET", page, cookies=jar if page != "/console/sign-in" else None)
        if answer.status != 200:
            problems.append(f"GET {page} returned {answer.status}")
            continue
        csp = answer.headers.get("Content-Security-Policy")
        expect(csp, f"{page} has no Content-Security-Policy")
        if csp:
            expect("unsafe-inline" not in csp and "unsafe-eval" not in csp, f"{page}'s CSP allows unsafe-inline/eval: {csp}")
            expect(directives(csp) == expected_csp, f"{page}'s CSP is {csp!r}, not the contract's")
        for header, value in (("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"), ("Cache-Control", "no-store")):
            expect((answer.headers.get(header) or "").lower() == value, f"{page}: {header} is {answer.headers.get(header)!r}, not {value}")
        expect("text/html" in answer.headers.get("Content-Type", ""), f"{page} is not text/html")
        html = answer.text
        expect(not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html, re.I), f"{page} has an inline <script>")
        expect(not re.search(r"<style[\s>]", html, re.I), f"{page} has a <style> element")
        expect(not re.search(r"\sstyle\s*=", html, re.I), f"{page} has a style= attribute")
        expect(not re.search(r"\son[a-z]+\s*=", html, re.I), f"{page} has an inline event handler")
        for what, value in secrets_in_pages.items():
            expect(value not in html, f"{page} contains {what}")
    require(not problems, "; ".join(problems))


def directives(policy):
    parsed = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            parsed[words[0].lower()] = set(words[1:])
    return parsed


# The checks run in the page. Visible: rendered with a box, not visibility:hidden, not inside a closed
# <details> (getClientRects is empty then).
A11Y_JS = r"""
const visible = e => { const s = getComputedStyle(e); return e.getClientRects().length > 0 && s.visibility !== 'hidden' && s.display !== 'none' && parseFloat(s.opacity) > 0; };
const describe = e => { let d = e.tagName.toLowerCase(); if (e.id) d += '#' + e.id; if (e.name) d += '[name=' + e.name + ']';
  const t = (e.innerText || e.value || '').trim().slice(0, 30); if (t && !['input','textarea','select'].includes(d.split(/[#\[]/)[0])) d += ' "' + t + '"'; return d; };
const controls = () => [...document.querySelectorAll('a[href], button, input, select, textarea, summary')]
  .filter(e => !(e.tagName === 'INPUT' && e.type === 'hidden') && !e.disabled && visible(e));
"""

CONTRAST_JS = A11Y_JS + r"""
const parse = c => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return [0, 0, 0, 0];
  const p = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
const over = (top, bottom) => { const a = top[3] + bottom[3] * (1 - top[3]); if (a === 0) return [0, 0, 0, 0];
  return [0, 1, 2].map(i => (top[i] * top[3] + bottom[i] * bottom[3] * (1 - top[3])) / a).concat([a]); };
const background = e => { const layers = []; for (let n = e; n && n.nodeType === 1; n = n.parentElement) {
    const c = parse(getComputedStyle(n).backgroundColor); if (c[3] > 0) layers.push(c); if (c[3] >= 1) break; }
  let colour = [255, 255, 255, 1]; for (let i = layers.length - 1; i >= 0; i--) colour = over(layers[i], colour); return colour; };
const luminance = c => { const [r, g, b] = c.slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
const failures = [];
for (const e of document.querySelectorAll('body *')) {
  if (!visible(e) || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE'].includes(e.tagName)) continue;
  const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()) ||
              (['INPUT', 'TEXTAREA', 'SELECT'].includes(e.tagName) && (e.value || '').trim() && e.type !== 'file' && e.type !== 'checkbox');
  if (!own) continue;
  const bg = background(e); const fg = over(parse(getComputedStyle(e).color), bg);
  const [l1, l2] = [luminance(fg), luminance(bg)].sort((a, b) => b - a); const ratio = (l1 + 0.05) / (l2 + 0.05);
  if (ratio < 4.5) failures.push(describe(e) + ' ' + ratio.toFixed(2) + ':1');
}
return {failures, body: getComputedStyle(document.body).backgroundColor};
"""

TARGETS_JS = A11Y_JS + r"""
// WCAG 2.5.8 exempts inline targets: a link inside a sentence (a paragraph, list item or cell with other
// text around it) is limited by the line height of that text; every other control must be 44 x 44.
const inSentence = e => { if (e.tagName !== 'A') return false; const block = e.closest('p, li, dd, td, th, figcaption, small');
  return !!block && block.textContent.trim().length > e.textContent.trim().length; };
return controls().filter(e => !inSentence(e)).map(e => [describe(e), e.getBoundingClientRect()])
  .filter(([, r]) => r.width < 44 - 0.01 || r.height < 44 - 0.01).map(([d, r]) => d + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
"""

LABELS_JS = A11Y_JS + r"""
const named = e => (e.textContent || '').trim();
const problems = [];
for (const e of document.querySelectorAll('input, select, textarea')) {
  if (e.tagName === 'INPUT' && ['hidden', 'submit', 'button', 'reset', 'image'].includes(e.type)) continue;
  const byFor = e.id && [...document.querySelectorAll('label')].some(l => l.htmlFor === e.id && named(l));
  const wrapped = e.closest('label') && named(e.closest('label'));
  const aria = (e.getAttribute('aria-label') || '').trim();
  const by = (e.getAttribute('aria-labelledby') || '').split(/\s+/).filter(Boolean).map(i => document.getElementById(i)).some(l => l && named(l));
  if (!(byFor || wrapped || aria || by)) problems.push(describe(e) + ' has no label');
}
for (const e of document.querySelectorAll('button')) {
  const by = (e.getAttribute('aria-labelledby') || '').split(/\s+/).filter(Boolean).map(i => document.getElementById(i)).some(l => l && named(l));
  if (!named(e) && !(e.getAttribute('aria-label') || '').trim() && !by) problems.push(describe(e) + ' has no name');
}
return problems;
"""

MARK_JS = A11Y_JS + r"""
const list = controls(); list.forEach((e, i) => e.setAttribute('data-a11y', String(i)));
document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);
return list.map(describe);
"""

FOCUS_JS = r"""
const e = document.activeElement; if (!e || e === document.body) return null;
const s = getComputedStyle(e);
const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0;
const shadow = s.boxShadow && s.boxShadow !== 'none';
const text = ['INPUT', 'TEXTAREA', 'SELECT'].includes(e.tagName) ? '' : (e.innerText || '').trim().slice(0, 30);
return {id: e.getAttribute('data-a11y'), styled: outline || shadow,
        what: e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.name ? '[name=' + e.name + ']' : '') + (text ? ' "' + text + '"' : '')};
"""


def emulate(run, scheme=None, width=None):
    """Emulates a colour scheme and a viewport width (CDP), or clears both."""
    run.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": scheme or ""}]})
    if width:
        run.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    else:
        run.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def keyboard_problems(run):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    described = run.js(MARK_JS)
    reached, unstyled = set(), []
    first = None
    for _ in range(len(described) * 2 + 10):
        ActionChains(run.driver).send_keys(Keys.TAB).perform()
        focused = run.js(FOCUS_JS)
        if not focused:
            continue
        key = focused["id"] if focused["id"] is not None else focused["what"]
        if key == first:
            break  # round the page once
        first = first if first is not None else key
        if focused["id"] is not None:
            reached.add(int(focused["id"]))
        if not focused["styled"] and focused["what"] not in unstyled:
            unstyled.append(focused["what"])
    problems = [f"TAB never reaches {d}" for i, d in enumerate(described) if i not in reached]
    problems += [f"{what} has no visible focus style (outline or box-shadow)" for what in unstyled]
    return problems


def axe_violations(run):
    """axe-core's WCAG 2.x A/AA and best-practice rules on the page as it is: one line per violated rule."""
    require(AXE_JS and Path(AXE_JS).is_file(), "BROWSER_AXE_JS does not name axe-core's axe.min.js (run scripts/browser.sh)")
    script = Path(AXE_JS).read_text() + """
        const done = arguments[arguments.length - 1];
        axe.run(document, {resultTypes: ["violations"]}).then(
            (results) => done(results.violations.map((v) =>
                `${v.id} (${v.impact}): ${v.nodes.length} element(s), first ${v.nodes[0].target.join(" ")}: ${v.help}`)),
            (error) => done([`axe-core failed: ${error}`]));"""
    return run.driver.execute_async_script(script)


def accessibility_problems(run, path, name):
    """Every check on one page: axe-core's rules (light and dark), keyboard, focus style, contrast (light and dark),
    target size, labels, and reflow at 320 px."""
    run.visit(path, name)
    problems = [f"axe: {p}" for p in axe_violations(run)]
    problems += [f"keyboard: {p}" for p in keyboard_problems(run)]
    light = run.js(CONTRAST_JS)
    problems += [f"contrast (light) {p}" for p in light["failures"]]
    problems += [f"target size: {p}" for p in run.js(TARGETS_JS)]
    problems += [f"label: {p}" for p in run.js(LABELS_JS)]
    try:
        emulate(run, scheme="dark")
        dark = run.js(CONTRAST_JS)
        run.shot(name + "-dark")
        problems += [f"contrast (dark) {p}" for p in dark["failures"]]
        problems += [f"axe (dark): {p}" for p in axe_violations(run)]
        if dark["body"] == light["body"]:
            problems.append(f"prefers-color-scheme: dark does not change the page's background ({light['body']})")
        emulate(run, width=320)
        run.driver.refresh()
        run.wait(lambda: run.js("return document.readyState") == "complete")
        width = run.js("return [document.scrollingElement.scrollWidth, window.innerWidth]")
        run.shot(name + "-320px")
        if width[0] > width[1]:
            problems.append(f"at 320 px wide the page scrolls sideways (scrollWidth {width[0]} > innerWidth {width[1]})")
    finally:
        emulate(run)
    return [f"{path}: {p}" for p in problems]


def test_accessibility(run):
    """On every signed-in page: axe-core finds no violation; TAB reaches every visible control, each with a visible focus style; text
    contrast ≥ 4.5:1 (light and dark); controls ≥ 44×44 (inline links exempt); every control labelled;
    no sideways scroll at 320 px."""
    run.issued_pass()
    # A webhook endpoint nobody listens on: the webhooks page then has an endpoint and failing deliveries to show.
    created = api("POST", "/api/v1/webhooks", {"url": "http://127.0.0.1:9/hooks", "types": ["pass.issued"], "description": "CRM <test>"})
    require(created.status == 201, f"creating a webhook endpoint answered {describe(created)}")
    issue_pass("HOOK")
    run.sign_in()
    problems = []
    for path in page_paths(run):
        name = "a11y-" + path.strip("/").replace("/", "-")
        try:
            problems += accessibility_problems(run, path, name)
        except Failure as failure:
            problems.append(f"{path}: {failure}")
    require(not problems, f"{len(problems)} problems: " + "; ".join(problems[:25]) + (" …" if len(problems) > 25 else ""))


def invite(run, name, email, role):
    """Invites a user on /console/users as the signed-in owner; returns the invite link's path."""
    from selenium.webdriver.support.select import Select
    run.visit("/console/users", "users")
    run.one("form#invite-user input#invite-name", "input#invite-name").send_keys(name)
    run.one("form#invite-user input#invite-email", "input#invite-email").send_keys(email)
    Select(run.one("form#invite-user select#invite-role", "select#invite-role")).select_by_value(role)
    run.one("form#invite-user button[type=submit]", "the Invite button").click()
    run.wait(lambda: run.all("#invite-link code"), message=f"no invite link shown after inviting {email}")
    link = run.one("#invite-link code").text.strip()
    require("/console/invite/" in link, f"the invite link is {link!r}")
    return urllib.parse.urlparse(link).path


def accept(run, path, password):
    """Opens an invite link in a signed-out browser and sets the password: signed in as that user."""
    run.sign_out_browser()
    run.driver.get(BASE + path)
    run.one("form#accept-invite input#new-password", "input#new-password").send_keys(password)
    run.one("form#accept-invite button[type=submit]", "the Set password button").click()
    run.wait_path("/console/templates")
    require(run.session(), f"no session after accepting {path}")


def session_csrf(run, path):
    """The CSRF token of the browser's session, read from a page's sign-out form."""
    return hidden_csrf(http("GET", path, cookies=run.cookies()).text)


def test_roles(run):
    """An owner invites a support user and a viewer. The support user's invite link works once; they see
    no template upload form and get 403 posting one anyway, and can edit a pass's data; the viewer sees no
    edit form and gets 403 posting it; each nav shows only what the role may open; a support user signs in
    by e-mail and password; disabled by the owner, they are signed out on their next request."""
    info = run.issued_pass()
    suffix = secrets.token_hex(3)
    password = "correct horse " + secrets.token_hex(4)
    run.sign_in()
    support_link = invite(run, "Sam Support", f"sam-{suffix}@example.test", "support")
    viewer_link = invite(run, "Val Viewer", f"val-{suffix}@example.test", "viewer")
    owner = run.cookies()
    owner_csrf = session_csrf(run, "/console/users")

    # Support: the link works once.
    accept(run, support_link, password)
    again = http("GET", support_link)
    require(again.status == 410 and "does not work" in again.text, f"a used invite link answered {describe(again)}")
    nav = {a.text.strip() for a in run.all("header nav a")}
    require("Passes" in nav and "Users" not in nav and "API keys" not in nav and "Webhooks" not in nav, f"support's nav shows {sorted(nav)}")
    require(not run.all("form#upload"), "support sees the template upload form")
    csrf = session_csrf(run, "/console/templates")
    upload = http("POST", "/console/templates/upload", urllib.parse.urlencode({"csrf": csrf, "name": "x"}).encode(),
                  {"Content-Type": "application/x-www-form-urlencoded"}, run.cookies())
    require(upload.status == 403, f"support posting a template upload was answered {describe(upload)}")
    forbidden = http("GET", "/console/users", cookies=run.cookies())
    require(forbidden.status == 403, f"support opening /console/users was answered {describe(forbidden)}")
    run.visit(run.pass_path(), "support-pass")
    field = run.one("form#edit input[name='data.member.name']", "support's input for data.member.name")
    field.clear()
    field.send_keys("Sam Edited")
    run.one("form#edit button[type=submit], form#edit button:not([type])", "the Save button").click()
    run.wait(lambda: run.all(".notice"), message="no notice after support saved the pass")
    require(stored_data(info["serial"])["member"]["name"] == "Sam Edited", "support's edit did not reach the pass")
    support_session = run.cookies()
    run.shot("roles-support-pass")

    # Signing in by e-mail and password works too.
    run.sign_out_browser()
    run.visit("/console/sign-in", "sign-in-user")
    run.one("form#sign-in input#email", "input#email").send_keys(f"sam-{suffix}@example.test")
    run.one("form#sign-in input#password", "input#password").send_keys(password)
    run.one("form#sign-in button[type=submit]", "the Sign in button").click()
    run.wait_path("/console/templates")

    # Viewer: reads the pass, no edit form, and a post is refused.
    accept(run, viewer_link, password)
    run.visit(run.pass_path(), "viewer-pass")
    require(not run.all("form#edit"), "the viewer sees the edit form")
    require(run.all("pre#data"), "the viewer does not see the pass's data")
    csrf = session_csrf(run, run.pass_path())
    edit = http("POST", run.pass_path(), urllib.parse.urlencode({"csrf": csrf, "raw": "{}"}).encode(),
                {"Content-Type": "application/x-www-form-urlencoded"}, run.cookies())
    require(edit.status == 403, f"the viewer posting an edit was answered {describe(edit)}")
    require(stored_data(info["serial"])["member"]["name"] == "Sam Edited", "the viewer's post changed the pass")
    run.shot("roles-viewer-pass")

    # The owner disables the support user: their next request is signed out.
    users = http("GET", "/console/users", cookies=owner).text
    match = re.search(r'/console/users/(u_[0-9a-f]+)/disable"[^>]*>.*?Disable Sam Support', users, re.S)
    require(match, "no Disable button for Sam Support on /console/users")
    disabled = form_post(f"/console/users/{match.group(1)}/disable", {"csrf": owner_csrf}, owner)
    require(disabled.status == 200 and "signed out everywhere" in disabled.text, f"disabling answered {describe(disabled)}")
    after = http("GET", "/console/passes", cookies=support_session)
    require(after.status == 303 and after.location_path() == "/console/sign-in", f"the disabled user's session still works: {describe(after)}")
    run.sign_out_browser()  # the tests after this one sign in as the owner again


def test_sign_out(run):
    """Sign out → /console/sign-in; the old session cookie no longer works (the row is gone, not just the
    cookie); GET /console/passes goes back to sign-in."""
    run.sign_in()
    old = run.session()
    run.visit("/console/passes", "passes-before-sign-out")
    button = run.one("header form#sign-out button", "the Sign out button in the header's form#sign-out")
    require(button.text.strip() == "Sign out", f"the sign-out button says {button.text!r}")
    run.one("header nav[aria-label=Console]", "header nav[aria-label=Console]")
    button.click()
    run.wait_path("/console/sign-in")
    run.shot("signed-out")
    require(run.session() is None, "the session cookie is still set after signing out")
    replay = http("GET", "/console/passes", cookies={SESSION_COOKIE: old})
    require(replay.status == 303 and replay.location_path() == "/console/sign-in",
            f"the signed-out session still opens /console/passes: {describe(replay)}")
    run.driver.get(BASE + "/console/passes")
    run.wait_path("/console/sign-in")


def test_accessibility_sign_in_page(run):
    """The sign-in page, signed out: the same checks as the signed-in pages."""
    run.sign_out_browser()
    problems = accessibility_problems(run, "/console/sign-in", "a11y-sign-in")
    require(not problems, f"{len(problems)} problems: " + "; ".join(problems[:25]))


IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
          "Version/18.0 Mobile/15E148 Safari/604.1")
DESKTOP = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"
ZXING_PYTHON = os.environ.get("BROWSER_ZXING_PYTHON", "")
PASSWRIGHT = os.environ.get("BROWSER_BIN", "")
DEV_CA = os.environ.get("BROWSER_DEV_CA", "")


def as_device(run, agent, languages="en-GB,en"):
    """Makes the browser send `agent` as its User-Agent and `languages` as its Accept-Language (CDP)."""
    run.driver.execute_cdp_cmd("Network.setUserAgentOverride", {"userAgent": agent, "acceptLanguage": languages})


def decode_codes(png):
    """The texts zxing-cpp (a decoder that shares no code with the server's) reads in a PNG."""
    require(ZXING_PYTHON, "BROWSER_ZXING_PYTHON does not name a python3 with zxing-cpp and pillow (run scripts/browser.sh)")
    script = ("import sys, io, json, zxingcpp\nfrom PIL import Image\n"
              "image = Image.open(io.BytesIO(sys.stdin.buffer.read())).convert('L')\n"
              "print(json.dumps([b.text for b in zxingcpp.read_barcodes(image)]))")
    result = subprocess.run([ZXING_PYTHON, "-c", script], input=png, capture_output=True, timeout=60)
    require(result.returncode == 0, f"zxing-cpp failed: {result.stderr.decode()[:200]}")
    return json.loads(result.stdout)


def test_holder_page(run):
    """The holder page of a pass issued through the API. iPhone Safari: the pass's picture, and an Add to
    Apple Wallet button whose download is application/vnd.apple.pkpass that `passwright verify` accepts.
    Desktop: a QR code that zxing-cpp decodes to the page's own URL. German Accept-Language: the German
    words. A voided pass offers no download. og:image is a PNG that decodes. axe-core, keyboard, contrast
    (light and dark) and reflow find nothing on the iPhone and the desktop page."""
    serial = issue_pass("HOLDER")["serial"]
    link = api("GET", f"/api/v1/passes/{PASS_TYPE}/{serial}/link")
    require(link.status == 200, f"GET …/link returned {describe(link)}")
    url = link.json()["url"]
    page = urllib.parse.urlparse(url)
    path = page.path + "?" + page.query
    original = run.js("return navigator.userAgent")
    try:
        holder_page_checks(run, url, path, serial)
    finally:
        as_device(run, original)


def holder_page_checks(run, url, path, serial):
    as_device(run, IPHONE)
    emulate(run, width=390)  # an iPhone's width, for the README's picture
    run.driver.get(url)
    run.shot("holder-iphone")
    emulate(run)
    picture = run.one("figure.pass img", "the pass's picture")
    run.wait(lambda: image_loaded(run, picture), message="the pass's picture did not load")
    add = run.one("a.add", "the Add to Apple Wallet button")
    require(add.text.strip() == "Add to Apple Wallet", f"the button says {add.text!r}")
    require(not run.all(".code svg"), "an iPhone is shown a code to scan")
    download = http("GET", urllib.parse.urlparse(add.get_attribute("href")).path + "?" + urllib.parse.urlparse(add.get_attribute("href")).query)
    require(download.status == 200 and download.headers.get("Content-Type") == "application/vnd.apple.pkpass",
            f"the button's download answered {download.status} {download.headers.get('Content-Type')}")
    with tempfile.NamedTemporaryFile(suffix=".pkpass") as file:
        file.write(download.body)
        file.flush()
        verified = subprocess.run([PASSWRIGHT, "verify", file.name, "--ca", DEV_CA], capture_output=True, timeout=120)
        require(verified.returncode == 0, f"passwright verify refused the download: {verified.stdout.decode()[-300:]} {verified.stderr.decode()[-300:]}")
    texts = [element.text for element in run.all("#front-text dd")]
    require("1,280" in texts and "Ada Okafor" in texts, f"the front's text is not on the page as text: {texts}")
    og = {element.get_attribute("property"): element.get_attribute("content") for element in run.all("meta[property^='og:']")}
    image = urllib.parse.urlparse(og.get("og:image", ""))
    preview = http("GET", image.path + "?" + image.query)
    require(preview.status == 200 and preview.headers.get("Content-Type") == "image/png", f"og:image answered {describe(preview)}")
    # Pillow in the decoder's python: the selenium one may not have it.
    decoded = subprocess.run([ZXING_PYTHON, "-c", "import sys, io\nfrom PIL import Image\nim = Image.open(io.BytesIO(sys.stdin.buffer.read())); im.load(); print(im.size[0], im.size[1])"],
                             input=preview.body, capture_output=True, timeout=60)
    require(decoded.returncode == 0 and int(decoded.stdout.split()[0]) > 300, f"og:image is not a PNG that decodes: {decoded.stderr.decode()[:200]}")

    as_device(run, IPHONE, "de-DE,de;q=0.9")
    run.driver.get(url)
    run.shot("holder-iphone-de")
    require(run.js("return document.documentElement.lang") == "de", "German Accept-Language: the page is not in German")
    require(run.one("a.add").text.strip() == "Zu Apple Wallet hinzufügen", f"the German button says {run.one('a.add').text!r}")
    require("Prämienkarte" in run.one("h1").text, f"the title is not from de.lproj: {run.one('h1').text!r}")
    require("1.280" in [element.text for element in run.all("#front-text dd")], "the points are not formatted for German")

    as_device(run, DESKTOP)
    run.driver.get(url)
    run.shot("holder-desktop")
    code = run.one(".code svg", "the QR code on the desktop page")
    texts = decode_codes(code.screenshot_as_png)
    require(texts == [url], f"the desktop page's QR code reads {texts}, not the page's URL {url}")
    require(run.all("a.secondary[href*='/pass.pkpass?']"), "the desktop page offers no download for a Mac")

    problems = []
    for agent, name in [(IPHONE, "a11y-holder-iphone"), (DESKTOP, "a11y-holder-desktop")]:
        as_device(run, agent)
        problems += accessibility_problems(run, path, name)
    require(not problems, f"{len(problems)} problems: " + "; ".join(problems[:25]))

    voided = api("PATCH", f"/api/v1/passes/{PASS_TYPE}/{serial}", {"voided": True})
    require(voided.status == 200, f"voiding answered {describe(voided)}")
    for agent in (IPHONE, DESKTOP):
        as_device(run, agent)
        run.driver.get(url)
        require(run.all(".state"), "the voided pass's page does not say it is voided")
        require(not run.all("a[href*='/pass.pkpass']") and not run.all(".code svg"), "a voided pass still offers its download")
    run.shot("holder-voided")


TESTS = [test_harness_push_reaches_standin, test_sign_in_page, test_cookie_flags, test_upload_template_version, test_search_finds_issued_pass,
         test_pass_page_edit_and_push, test_erase_from_pass_page, test_webhook_subscription, test_api_keys, test_audit_trail, test_dashboard, test_roles, test_bulk_upload, test_security, test_accessibility, test_sign_out,
         test_accessibility_sign_in_page, test_holder_page]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="run only the tests whose name contains this")
    options = parser.parse_args()
    # SIGTERM (the script's timeout or cleanup) unwinds like Ctrl-C, so the browser is always quit.
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))

    tests = [test for test in TESTS if not options.only or options.only in test.__name__]
    passed = failed = 0
    reported = set()

    def report(ok, name, reason=""):
        nonlocal passed, failed
        reported.add(name)
        if ok:
            passed += 1
            print(f"PASS {name}", flush=True)
        else:
            failed += 1
            print(f"FAIL {name}: {reason}", flush=True)

    if not BASE or not ADMIN_TOKEN:
        for test in tests:
            report(False, test.__name__, "BROWSER_BASE and PASSWRIGHT_ADMIN_TOKEN must be set (run scripts/browser.sh)")
        print(f"{passed} passed, {failed} failed", flush=True)
        return 1
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    driver = None
    try:
        try:
            driver = start_browser()
        except Exception as error:
            for test in tests:
                report(False, test.__name__, f"Chromium did not start: {str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__}")
            return 1
        run = Run(driver)
        for test in tests:
            name = test.__name__[len("test_"):] if test.__name__.startswith("test_") else test.__name__
            run.current_test = name
            try:
                test(run)
                report(True, name)
            except Failure as failure:
                report(False, name, str(failure))
                keep_failure(run, name)
            except KeyboardInterrupt:
                report(False, name, "interrupted (SIGTERM or Ctrl-C)")
                raise
            except Exception as error:
                where = traceback.extract_tb(error.__traceback__)[-1]
                message = str(error).strip().splitlines()[0] if str(error).strip() else ""
                report(False, name, f"{type(error).__name__}: {message} (line {where.lineno})")
                keep_failure(run, name)
            finally:
                try:
                    emulate(run)
                except Exception:
                    pass
    except KeyboardInterrupt:
        pass
    finally:
        if driver is not None:
            try:
                driver.quit()
            except Exception:
                pass
        for test in tests:  # interrupted: what never ran fails too
            name = test.__name__[len("test_"):]
            if name not in reported and test.__name__ not in reported:
                report(False, name, "not run: interrupted")
        print(f"{passed} passed, {failed} failed", flush=True)
    return 0 if failed == 0 and passed == len(tests) else 1


def keep_failure(run, name):
    """A screenshot and the page source of the moment a test failed."""
    try:
        run.shot(f"FAILED-{name}")
        (ARTEFACTS / f"FAILED-{name}.html").write_text(run.driver.page_source, encoding="utf-8")
    except Exception:
        pass


if __name__ == "__main__":
    sys.exit(main())
