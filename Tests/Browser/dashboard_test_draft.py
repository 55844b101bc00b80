#!/usr/bin/env python3
"""Draft of the console dashboard's browser test, to merge into console_test.py once the dashboard's
route is wired to the analytics service (GET /console/dashboard) and GET /api/v1/analytics exists.

To merge: copy the functions below (not the imports or the __main__ block) into console_test.py after
test_audit_trail, add test_dashboard to TESTS after test_audit_trail, and add "/console/dashboard" to
SIGNED_IN_PAGES (so test_accessibility checks it too). Until then it runs on its own with the same
environment scripts/browser.sh sets, against a server that has the dashboard:

    BROWSER_BASE=… PASSWRIGHT_ADMIN_TOKEN=… BROWSER_AXE_JS=… python3 Tests/Browser/dashboard_test_draft.py

Assumptions, where the contract is silent (the console should match these, or this test should change):
  D1  GET /api/v1/analytics takes the console form's query unchanged (template, from, to, interval) and
      answers the AnalyticsReport JSON (Sources/WalletCore/Wire/AnalyticsReport.swift).
  D2  Every drawn value is an SVG element with data-series, data-value and either data-period (a period's
      start, for counts per period) or data-name (pushFailures, by reason); series names are the report's
      fields (installed, removed, activePasses, devices, pushesSent, pushesFailed, pageViews, downloads).
  D3  The figures at the top are #figure-active-passes, #figure-devices, #figure-installed,
      #figure-removed and #figure-pushes-failed, each holding <data value="N">.
  D4  Each version in the report's `versions` is a g.marker with data-version and data-day in the
      installs chart (#chart-installs), at most one per version.
  D5  Rollups are written with the events (no delay), so two equal API answers around the page's load
      mean the page drew the same report.
"""

import sys
import time
import urllib.parse

from console_test import (PASS_TYPE, TEMPLATE, WAIT, Failure, api, accessibility_problems, apns_pushes, describe, http,
                          issue_pass, require)


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


if __name__ == "__main__":
    import console_test
    console_test.TESTS = [test_dashboard]
    sys.exit(console_test.main())
