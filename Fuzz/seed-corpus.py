#!/usr/bin/env python3
"""Writes the seed corpus of every fuzz target, derived from the sample templates and passes.

    Fuzz/seed-corpus.py OUT_DIR PKPASS_DIR

OUT_DIR/<Target>/ gets one file per seed. PKPASS_DIR holds .pkpass files built from the samples
(scripts/fuzz.sh builds them); their pass.json, pass.strings and archives seed the decoders. The HTTP
seeds name the pass, device and tokens that FuzzHTTPRequest issues and registers before it starts.
"""
import hashlib
import json
import pathlib
import sys
import zipfile

out, pkpasses = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
root = pathlib.Path(__file__).resolve().parent.parent
templates = sorted(p.parent for p in (root / "Templates").glob("*/pass.json"))


def write(target, data):
    folder = out / target
    folder.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)


archives = sorted(pkpasses.glob("*.pkpass"))
for archive in archives:
    write("FuzzPkpass", archive.read_bytes())
    with zipfile.ZipFile(archive) as z:
        for name in z.namelist():
            if name == "pass.json":
                write("FuzzPassJSON", z.read(name))
            elif name.endswith("pass.strings"):
                write("FuzzPassStrings", z.read(name))
# Previews: byte 0 picks the options (see FuzzPreview); archives as they are, pass.json with bit 7.
for index, archive in enumerate(archives):
    write("FuzzPreview", bytes([index * 0b0101001 & 0x7F]) + archive.read_bytes())
for index, template in enumerate(templates):
    write("FuzzPreview", bytes([0x80 | (index * 0b0100110 & 0x7F)]) + (template / "pass.json").read_bytes())
# Hostile archives built from a real one: a traversal name, a zip bomb, a truncated copy.
if archives:
    import io
    real = archives[0].read_bytes()
    with zipfile.ZipFile(archives[0]) as z:
        members = {name: z.read(name) for name in z.namelist()}
    for extra_name, extra in (("../../etc/passwd", b"root"), ("en.lproj/../../x", b"x"), ("/abs.png", b"x"),
                              ("bomb.png", bytes(8 << 20))):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
            for name, data in members.items():
                z.writestr(name, data)
            z.writestr(extra_name, extra)
        write("FuzzPkpass", buffer.getvalue())
    write("FuzzPkpass", real[: len(real) // 2])
    write("FuzzPkpass", real[:-22])  # no end-of-central-directory record

for template in templates:
    write("FuzzPassJSON", (template / "pass.json").read_bytes())
    for strings in template.glob("*.lproj/pass.strings"):
        write("FuzzPassStrings", strings.read_bytes())

# Orders: the sample order templates' order.json.
for order in sorted((root / "Templates" / "orders").glob("*/order.json")):
    write("FuzzOrderJSON", order.read_bytes())

# Template rendering: byte 0 picks the template (sorted, as the target lists them) and the format.
samples = root / "Templates" / "samples"
for index, template in enumerate(templates):
    for extension, bit in (("csv", 0), ("jsonl", 1)):
        source = samples / f"{template.name}.{extension}"
        if source.exists():
            lines = source.read_bytes().splitlines(keepends=True)[:4]
            write("FuzzTemplateRender", bytes([index << 1 | bit]) + b"".join(lines))
    single = samples / f"{template.name}.json"
    if single.exists():
        record = json.dumps(json.loads(single.read_text()), ensure_ascii=False)
        write("FuzzTemplateRender", bytes([index << 1 | 1]) + record.encode() + b"\n")

# HTTP: one request per route and method, with the seeded pass's identifiers and tokens.
admin = "Authorization: Bearer fuzz-admin-token-0123456789"
apple = "Authorization: ApplePass fuzz-pass-token-0123456789abcdef"
json_type = "Content-Type: application/json"
pass_type, serial, device = "pass.dev.passwright.loyalty", "FUZZ-0001", "fuzz-device-1"
issue = {"template": "loyalty", "serialNumber": "FUZZ-0002",
         "data": {"member": {"id": "M-2", "name": "Ada"}, "points": 5, "tier": "Gold"}}
requests = [
    ("POST /api/v1/passes", [admin, json_type], json.dumps(issue)),
    (f"GET /api/v1/passes/{pass_type}/{serial}", [admin], ""),
    (f"PATCH /api/v1/passes/{pass_type}/{serial}", [admin, json_type], json.dumps({"data": {"points": 11}})),
    (f"PATCH /api/v1/passes/{pass_type}/{serial}", [admin, json_type], json.dumps({"voided": True})),
    (f"GET /api/v1/passes/{pass_type}/{serial}/pkpass", [admin], ""),
    ("GET /api/v1/templates", [admin], ""),
    ("PATCH /api/v1/templates/loyalty/passes", [admin, json_type], json.dumps({"overrides": {"logoText": "New"}})),
    ("GET /api/v1/logs?limit=5", [admin], ""),
    (f"GET /passes/{pass_type}/{serial}?expires=4102444800&signature=AAAA", [], ""),
    (f"GET /passes/{pass_type}/{serial}/pass.pkpass?expires=4102444800&signature=AAAA", ["Accept-Language: de-DE, de;q=0.9, *;q=0.1"], ""),
    (f"GET /passes/{pass_type}/{serial}/picture.png?expires=4102444800&signature=AAAA&side=back", [], ""),
    (f"GET /api/v1/passes/{pass_type}/{serial}/link", [admin], ""),
    (f"POST /wallet/v1/devices/{device}/registrations/{pass_type}/{serial}", [apple, json_type], json.dumps({"pushToken": "00ff"})),
    (f"DELETE /wallet/v1/devices/{device}/registrations/{pass_type}/{serial}", [apple], ""),
    (f"GET /wallet/v1/devices/{device}/registrations/{pass_type}?passesUpdatedSince=1", [], ""),
    (f"GET /wallet/v1/passes/{pass_type}/{serial}", [apple, "If-Modified-Since: Sun, 29 Nov 2026 00:00:00 GMT"], ""),
    ("POST /wallet/v1/passes/pass.dev.passwright.membership/M-1/personalize", [json_type],
     json.dumps({"personalizationToken": "t", "requiredPersonalizationInfo": {"emailAddress": "a@example.com"}})),
    ("POST /wallet/v1/log", [json_type], json.dumps({"logs": ["one", "two"]})),
    ("POST /api/v1/orders", [admin, json_type], json.dumps({"template": "shop", "orderIdentifier": "FUZZ-O-1", "order": {"status": "open"}})),
    ("GET /api/v1/orders?limit=5", [admin], ""),
    ("GET /api/v1/orders/order.dev.passwright.shop/FUZZ-O-1", [admin], ""),
    ("PATCH /api/v1/orders/order.dev.passwright.shop/FUZZ-O-1", [admin, "Content-Type: application/merge-patch+json"], json.dumps({"status": "completed"})),
    ("GET /api/v1/orders/order.dev.passwright.shop/FUZZ-O-1/order", [admin], ""),
    ("GET /api/v1/orders/order.dev.passwright.shop/FUZZ-O-1/preview?scale=1&appearance=dark", [admin], ""),
    ("POST /orders/v1/devices/fuzz-device-2/registrations/order.dev.passwright.shop/FUZZ-O-1",
     ["Authorization: AppleOrder fuzz-order-token-0123456789", json_type], json.dumps({"pushToken": "00ff"})),
    ("GET /orders/v1/devices/fuzz-device-2/registrations/order.dev.passwright.shop?ordersModifiedSince=1", [], ""),
    ("GET /orders/v1/orders/order.dev.passwright.shop/FUZZ-O-1", ["Authorization: AppleOrder fuzz-order-token-0123456789", "If-Modified-Since: 0"], ""),
    ("POST /orders/v1/log", [json_type], json.dumps(["one", "two"])),
    ("GET /healthz", [], ""),
    ("GET /readyz", [], ""),
    ("GET /metrics", [], ""),
    ("GET /openapi.json", [], ""),
    (f"POST /api/v1/passes/{pass_type}/{serial}/push", [admin], ""),
    ("GET /api/v1/push/stats", [admin], ""),
    ("POST /api/v1/templates/loyalty/lint", [admin], ""),
    (f"GET /api/v1/passes/{pass_type}/{serial}/preview?side=both&scale=1&locale=de", [admin], ""),
    (f"GET /api/v1/passes/{pass_type}/{serial}/preview?format=svg", [admin, 'If-None-Match: "1-1-front-2x-svg-base-own"'], ""),
    ("POST /api/v1/templates/loyalty/preview?scale=1", [admin, json_type], json.dumps({"record": issue["data"]})),
    ("POST /api/v1/templates/coupon/preview?side=back", [admin], ""),
]
for line, headers, body in requests:
    write("FuzzHTTPRequest", "\n".join([line, *headers]) + "\n\n" + body)

for target in sorted(p.name for p in out.iterdir()):
    print(f"seed-corpus: {target}: {len(list((out / target).iterdir()))} inputs", file=sys.stderr)
