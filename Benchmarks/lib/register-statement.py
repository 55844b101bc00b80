#!/usr/bin/env python3
"""Writes a pgbench script that runs Passwright's registration statement itself.

    Benchmarks/lib/register-statement.py PASS_TYPE SERIAL > register.sql

The statement is read from the source (WalletStore+PostgresRegistration.swift), so the benchmark runs
the text the server prepares. Its `?` placeholders are bound in the order the Swift code binds them:
a new device on every transaction (pgbench's random client and counter), the pass named on the
command line, analytics on, one of the eight counter shards. http.sh runs it against the database
the server just used, with wrk's client count: PostgreSQL's own rate for a registration here.
"""
import re
import sys

pass_type, serial = sys.argv[1], sys.argv[2]
source = open("Sources/WalletStore/WalletStore+PostgresRegistration.swift").read()
statement = re.search(r'registrationStatement = """(.*?)"""', source, re.S).group(1)
# Its end, the webhook deliveries, is WalletStore.postgresDeliveries(of:), which every statement
# that inserts events shares: expanded here as Swift interpolates it.
webhooks = open("Sources/WalletStore/WalletStore+Webhooks.swift").read()


def swift_text(function):
    """The string literal a static function of WalletStore+Webhooks.swift returns."""
    return re.search(rf'func {function}\(.*?"""\n(.*?)"""', webhooks, re.S).group(1)


matches = swift_text("endpointMatches").replace("\\(events)", "event").replace("\\(contains)", "strpos")
deliveries = swift_text("postgresDeliveries").replace("\\(endpointMatches(source, contains: \"strpos\"))", matches)
deliveries = deliveries.replace("\\(source)", "event")
statement = statement.replace('\\(postgresDeliveries(of: "event"))', deliveries)
if "\\(" in statement:
    sys.exit("the registration statement interpolates something this script does not expand: update it")
device = "'bench-sql-' || :c || '-' || :n"
token = "'0123456789abcdef0123456789abcdef'"
pass_key = [f"'{pass_type}'", f"'{serial}'"]
values = (
    [device, token, "1"]  # the device upserted
    + [device] + pass_key + ["1"]  # the registration
    + [token, device, token]  # queued pushes moved to the token
    + ["100"] + pass_key + ["100"]  # the devices counted, up to the bound
    + pass_key  # the pass read
    + ["20000", ":shard", "'devices.added'", "'pass.installed'", "1"]  # the counters
    + ["1", "'pass.installed'", "'device'"]  # the event
    + ["1", "1"]  # the webhook deliveries
    + ["'passwright_webhooks'"]
)
parts = statement.split("?")
if len(parts) != len(values) + 1:
    sys.exit(f"the statement has {len(parts) - 1} placeholders, this script binds {len(values)}: update it")
text = parts[0] + "".join(value + part for value, part in zip(values, parts[1:]))
print("\\set n random(1, 1000000000)\n\\set c random(1, 1000000000)\n\\set shard random(0, 7)")
print(" ".join(text.split()) + ";")
