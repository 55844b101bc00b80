#!/usr/bin/env python3
"""Sanity checks for the sample templates, before the compiler and linter see them.

Checks: pass.json parses and names its pass type and team; every PNG has the exact pixel size of
its slot at its scale; every pass.strings decodes (UTF-16 with BOM or UTF-8) and all languages
define the same keys; every displayed label, changeMessage, relevantText and the description are
keys there; field keys are unique; colours are rgb() with WCAG contrast >= 4.5:1 for foreground
and label on background; every placeholder resolves in samples/<template>.json.
Exit status 1 on any problem.  Usage: python3 Templates/tools/check-templates.py
"""
import codecs
import json
import os
import re
import struct
import sys

TEMPLATES_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZES = {"icon": (38, 38), "logo": (150, 50), "strip": (375, 144), "thumbnail": (90, 90),
         "background": (345, 505), "primaryLogo": (126, 30), "secondaryLogo": (135, 12), "footer": (286, 15)}
MAX_ONLY = {"logo", "primaryLogo", "secondaryLogo", "footer", "thumbnail"}  # "at most" slots
STYLES = ("boardingPass", "coupon", "eventTicket", "generic", "storeCard")
GROUPS = ("headerFields", "primaryFields", "secondaryFields", "auxiliaryFields", "backFields", "additionalInfoFields")
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z0-9_.]+)\s*\}\}")
STRING_LINE = re.compile(r'^"((?:[^"\\]|\\.)*)"\s*=\s*"((?:[^"\\]|\\.)*)";\s*$')
problems = []


def problem(where, message):
    problems.append(f"{where}: {message}")


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", head[16:24])


def read_strings(path):
    data = open(path, "rb").read()
    if data.startswith(codecs.BOM_UTF16_LE) or data.startswith(codecs.BOM_UTF16_BE):
        text = data.decode("utf-16")
    else:
        text = data.decode("utf-8")
    table = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("/*"):
            continue
        match = STRING_LINE.match(line)
        if not match:
            problem(path, f"unreadable line {line!r}")
            continue
        table[match.group(1).replace('\\"', '"').replace("\\\\", "\\")] = match.group(2)
    return table


def luminance(rgb):
    def channel(c):
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def parse_rgb(where, value):
    match = re.fullmatch(r"rgb\((\d{1,3}), (\d{1,3}), (\d{1,3})\)", value or "")
    if not match:
        problem(where, f"colour {value!r} is not rgb(r, g, b)")
        return None
    return tuple(int(c) for c in match.groups())


def resolve(record, path):
    value = record
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def walk_strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from walk_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from walk_strings(item)


def check(name):
    folder = os.path.join(TEMPLATES_DIR, name)
    where = f"{name}/pass.json"
    try:
        pass_json = json.load(open(os.path.join(folder, "pass.json"), encoding="utf-8"))
    except ValueError as error:
        problem(where, f"does not parse: {error}")
        return
    for key in ("formatVersion", "passTypeIdentifier", "teamIdentifier", "organizationName", "description"):
        if key not in pass_json:
            problem(where, f"missing {key}")
    if pass_json.get("passTypeIdentifier") != f"pass.dev.passwright.{name}":
        problem(where, "passTypeIdentifier is not pass.dev.passwright.<name>")
    styles = [s for s in STYLES if s in pass_json]
    if len(styles) != 1:
        problem(where, f"needs exactly one style key, has {styles}")
        return
    fields = pass_json[styles[0]]

    # Images: exact pixel sizes, all three scales.
    for file in sorted(os.listdir(folder)):
        if not file.endswith(".png"):
            continue
        match = re.fullmatch(r"([A-Za-z]+)(?:@([23])x)?\.png", file)
        slot, scale = match.group(1), int(match.group(2) or 1)
        expected = tuple(v * scale for v in SIZES[slot])
        size = png_size(os.path.join(folder, file))
        exact = slot not in MAX_ONLY or slot == "logo"
        if size is None or (size != expected if exact else (size[0] > expected[0] or size[1] > expected[1])):
            problem(f"{name}/{file}", f"is {size}, expected {expected}")
        for other in ("", "@2x", "@3x"):
            if not os.path.exists(os.path.join(folder, f"{slot}{other}.png")):
                problem(f"{name}/{file}", f"missing {slot}{other}.png")

    # Localizations: same keys everywhere, and every displayed text is a key.
    tables = {}
    for entry in sorted(os.listdir(folder)):
        if entry.endswith(".lproj"):
            tables[entry] = read_strings(os.path.join(folder, entry, "pass.strings"))
    if len(tables) < 2:
        problem(name, "needs at least two .lproj localizations")
    keysets = {frozenset(t) for t in tables.values()}
    if len(keysets) > 1:
        problem(name, f"pass.strings key sets differ: {sorted(set.union(*map(set, keysets)) - set.intersection(*map(set, keysets)))}")
    displayed = [pass_json["description"]] + [pass_json[k] for k in ("logoText", "eventLogoText") if k in pass_json]
    seen_keys = set()
    for group in GROUPS:
        groupFields = fields.get(group, [])
        if group == "secondaryFields" and len(groupFields) > 3:
            problem(where, f"{len(groupFields)} secondary fields")
        for field in groupFields:
            if field["key"] in seen_keys:
                problem(where, f"duplicate field key {field['key']}")
            seen_keys.add(field["key"])
            displayed += [field[k] for k in ("label", "changeMessage") if k in field]
            if "changeMessage" in field and "%@" not in field["changeMessage"]:
                problem(where, f"changeMessage of {field['key']} lacks %@")
            if field.get("textAlignment") not in (None, "PKTextAlignmentNatural"):
                problem(where, f"textAlignment of {field['key']}")
    displayed += [loc["relevantText"] for loc in pass_json.get("locations", [])]
    for text in displayed:
        for lproj, table in tables.items():
            if text not in table:
                problem(f"{name}/{lproj}/pass.strings", f"missing key {text!r}")
    for barcode in pass_json.get("barcodes", []):
        if not barcode.get("altText"):
            problem(where, "barcode without altText")

    # Colours.
    background = parse_rgb(where, pass_json.get("backgroundColor"))
    for key in ("foregroundColor", "labelColor"):
        colour = parse_rgb(where, pass_json.get(key))
        if background and colour and contrast(colour, background) < 4.5:
            problem(where, f"{key} contrast {contrast(colour, background):.2f}:1 < 4.5:1")

    # Placeholders resolve in the sample record.
    record = json.load(open(os.path.join(TEMPLATES_DIR, "samples", f"{name}.json"), encoding="utf-8"))
    for text in walk_strings(pass_json):
        for path in PLACEHOLDER.findall(text):
            if resolve(record, path) is None:
                problem(where, f"placeholder {{{{{path}}}}} has no value in samples/{name}.json")
    if styles[0] in ("eventTicket", "boardingPass", "coupon") and not (pass_json.get("expirationDate") or pass_json.get("relevantDates")):
        problem(where, "no expirationDate or relevantDates")
    print(f"{name}: {styles[0]}, {len(tables)} languages, contrast fg {contrast(parse_rgb(where, pass_json['foregroundColor']), background):.2f}"
          f" label {contrast(parse_rgb(where, pass_json['labelColor']), background):.2f}")


def main():
    names = sorted(d for d in os.listdir(TEMPLATES_DIR)
                   if os.path.isfile(os.path.join(TEMPLATES_DIR, d, "pass.json")))
    for name in names:
        check(name)
    for line in problems:
        print("problem:", line)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
