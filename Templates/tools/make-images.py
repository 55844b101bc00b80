#!/usr/bin/env python3
"""Draws the PNG images of the sample templates in Templates/.

Pure Python (zlib + struct, no Pillow), so anyone can regenerate the art: shapes are signed
distance functions in points, rendered with anti-aliased edges at @1x, @2x and @3x, so every
scale is drawn, not resized. Each template keeps its palette below; each image slot is drawn only
for the styles that show it (Apple's "Pass Design and Creation", Images), at the exact sizes Wallet expects.

Usage: python3 Templates/tools/make-images.py [template ...]   (default: all templates)
"""
import math
import os
import struct
import sys
import zlib

TEMPLATES_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCALES = (1, 2, 3)

# Sizes in points (width, height); pixels are these times the scale.
SIZES = {
    "icon": (38, 38),
    "logo": (150, 50),
    "strip": (375, 144),
    "thumbnail": (90, 90),
    "background": (345, 505),
    "primaryLogo": (126, 30),
    "secondaryLogo": (135, 12),
    "footer": (286, 15),
}

# Palettes: background gradient (top, bottom), accent, ink (marks and text on art), paper.
PALETTES = {
    "loyalty": {"top": (30, 84, 66), "bottom": (18, 52, 41), "accent": (214, 167, 94),
                "ink": (255, 255, 255), "soft": (72, 128, 104)},
    "concert": {"top": (40, 24, 72), "bottom": (16, 12, 36), "accent": (255, 92, 160),
                "ink": (255, 255, 255), "soft": (92, 60, 150)},
    "boarding": {"top": (18, 56, 108), "bottom": (10, 34, 72), "accent": (118, 214, 255),
                 "ink": (255, 255, 255), "soft": (44, 96, 160)},
    "coupon": {"top": (255, 239, 216), "bottom": (248, 214, 170), "accent": (186, 68, 40),
               "ink": (92, 40, 20), "soft": (240, 196, 140)},
    "membership": {"top": (52, 58, 64), "bottom": (30, 34, 38), "accent": (255, 176, 59),
                   "ink": (255, 255, 255), "soft": (86, 96, 106)},
    "poster-event": {"top": (255, 122, 69), "bottom": (88, 24, 96), "accent": (255, 214, 102),
                     "ink": (255, 255, 255), "soft": (170, 56, 110)},
}

# Which image slots each template ships (only what its style shows).
SLOTS = {
    "loyalty": ("icon", "logo", "strip"),
    "concert": ("icon", "logo", "strip"),
    "boarding": ("icon", "logo", "footer"),
    "coupon": ("icon", "logo", "strip"),
    "membership": ("icon", "logo", "thumbnail"),
    "poster-event": ("icon", "logo", "background", "primaryLogo", "secondaryLogo"),
}

WORDMARKS = {
    "loyalty": "BEAN&LEAF", "concert": "NORTHLIGHT", "boarding": "AURORA AIR",
    "coupon": "HARBOR BOOKS", "membership": "SUMMIT CLUB", "poster-event": "MERIDIAN",
}

# A 5x7 block font, enough for the wordmarks.
FONT = {
    "A": ["01110", "10001", "10001", "11111", "10001", "10001", "10001"],
    "B": ["11110", "10001", "10001", "11110", "10001", "10001", "11110"],
    "C": ["01111", "10000", "10000", "10000", "10000", "10000", "01111"],
    "D": ["11110", "10001", "10001", "10001", "10001", "10001", "11110"],
    "E": ["11111", "10000", "10000", "11110", "10000", "10000", "11111"],
    "F": ["11111", "10000", "10000", "11110", "10000", "10000", "10000"],
    "G": ["01111", "10000", "10000", "10111", "10001", "10001", "01111"],
    "H": ["10001", "10001", "10001", "11111", "10001", "10001", "10001"],
    "I": ["11111", "00100", "00100", "00100", "00100", "00100", "11111"],
    "K": ["10001", "10010", "10100", "11000", "10100", "10010", "10001"],
    "L": ["10000", "10000", "10000", "10000", "10000", "10000", "11111"],
    "M": ["10001", "11011", "10101", "10101", "10001", "10001", "10001"],
    "N": ["10001", "11001", "10101", "10011", "10001", "10001", "10001"],
    "O": ["01110", "10001", "10001", "10001", "10001", "10001", "01110"],
    "P": ["11110", "10001", "10001", "11110", "10000", "10000", "10000"],
    "R": ["11110", "10001", "10001", "11110", "10100", "10010", "10001"],
    "S": ["01111", "10000", "10000", "01110", "00001", "00001", "11110"],
    "T": ["11111", "00100", "00100", "00100", "00100", "00100", "00100"],
    "U": ["10001", "10001", "10001", "10001", "10001", "10001", "01110"],
    "V": ["10001", "10001", "10001", "10001", "10001", "01010", "00100"],
    "W": ["10001", "10001", "10001", "10101", "10101", "11011", "10001"],
    "&": ["01100", "10010", "10100", "01000", "10101", "10010", "01101"],
    " ": ["00000"] * 7,
}


# ---------------------------------------------------------------- canvas and PNG encoding

class Canvas:
    """An RGBA pixel buffer drawn in points at a given scale."""

    def __init__(self, width_pt, height_pt, scale):
        self.scale = scale
        self.w, self.h = width_pt * scale, height_pt * scale
        self.px = bytearray(self.w * self.h * 4)

    def vertical_gradient(self, top, bottom):
        for y in range(self.h):
            t = y / max(self.h - 1, 1)
            color = bytes(round(a + (b - a) * t) for a, b in zip(top, bottom)) + b"\xff"
            self.px[y * self.w * 4:(y + 1) * self.w * 4] = color * self.w

    def shape(self, sdf, color, alpha=1.0, bbox=None):
        """Blends `color` where the signed distance (in points) is negative, anti-aliased."""
        s = self.scale
        x0, y0, x1, y1 = bbox if bbox else (0, 0, self.w / s, self.h / s)
        px0, py0 = max(0, int(x0 * s) - 1), max(0, int(y0 * s) - 1)
        px1, py1 = min(self.w, int(math.ceil(x1 * s)) + 1), min(self.h, int(math.ceil(y1 * s)) + 1)
        r, g, b = color
        buf = self.px
        for py in range(py0, py1):
            y = (py + 0.5) / s
            row = py * self.w * 4
            for px in range(px0, px1):
                coverage = 0.5 - sdf((px + 0.5) / s, y) * s
                if coverage <= 0:
                    continue
                a = min(coverage, 1.0) * alpha
                i = row + px * 4
                da = buf[i + 3] / 255
                out_a = a + da * (1 - a)
                for c, value in enumerate((r, g, b)):
                    buf[i + c] = round((value * a + buf[i + c] * da * (1 - a)) / out_a)
                buf[i + 3] = round(out_a * 255)

    def text(self, string, x, y, cell, color):
        """Draws `string` in the block font with its top left at (x, y), cells `cell` points wide."""
        for n, char in enumerate(string):
            glyph = FONT[char]
            for row, bits in enumerate(glyph):
                for col, bit in enumerate(bits):
                    if bit == "1":
                        cx, cy = x + (n * 6 + col) * cell, y + row * cell
                        self.shape(box(cx + cell / 2, cy + cell / 2, cell * 0.46, cell * 0.46, cell * 0.18),
                                   color, bbox=(cx, cy, cx + cell, cy + cell))

    def png(self):
        opaque = all(self.px[i] == 255 for i in range(3, len(self.px), 4))
        channels = 3 if opaque else 4
        raw = bytearray()
        for y in range(self.h):
            row = self.px[y * self.w * 4:(y + 1) * self.w * 4]
            if opaque:
                del row[3::4]
            # Filter "Sub": each byte minus the one a pixel to its left; gradients become zeros.
            raw.append(1)
            raw += row[:channels]
            raw += bytes((a - b) & 0xFF for a, b in zip(row[channels:], row))
        def chunk(kind, data):
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        header = struct.pack(">IIBBBBB", self.w, self.h, 8, 2 if opaque else 6, 0, 0, 0)
        return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))


def text_width(string, cell):
    return (len(string) * 6 - 1) * cell


# ---------------------------------------------------------------- signed distance functions (points)

def circle(cx, cy, r):
    return lambda x, y: math.hypot(x - cx, y - cy) - r


def ring(cx, cy, r, width):
    return lambda x, y: abs(math.hypot(x - cx, y - cy) - r) - width / 2


def box(cx, cy, hw, hh, radius=0.0):
    def sdf(x, y):
        qx, qy = abs(x - cx) - hw + radius, abs(y - cy) - hh + radius
        return math.hypot(max(qx, 0), max(qy, 0)) + min(max(qx, qy), 0) - radius
    return sdf


def polygon(points):
    """A convex polygon (points clockwise on screen) as the intersection of half-planes."""
    edges = []
    for (ax, ay), (bx, by) in zip(points, points[1:] + points[:1]):
        length = math.hypot(bx - ax, by - ay)
        edges.append((ax, ay, (by - ay) / length, -(bx - ax) / length))
    return lambda x, y: max((x - ax) * nx + (y - ay) * ny for ax, ay, nx, ny in edges)


def union(*shapes):
    return lambda x, y: min(s(x, y) for s in shapes)


def intersect(*shapes):
    return lambda x, y: max(s(x, y) for s in shapes)


def subtract(shape, cut):
    return lambda x, y: max(shape(x, y), -cut(x, y))


def bounds(cx, cy, r):
    return (cx - r, cy - r, cx + r, cy + r)


# ---------------------------------------------------------------- brand marks, drawn in a size x size square

def draw_mark(canvas, name, ox, oy, size, p, on_art):
    """The template's brand mark; `on_art` draws it in ink on a coloured tile, else on transparency."""
    u = size / 100  # the mark is designed on a 100 x 100 grid
    c = lambda x, y: (ox + x * u, oy + y * u)
    area = (ox, oy, ox + size, oy + size)
    ink, accent = p["ink"], p["accent"]
    if name == "loyalty":  # a coffee bean: two circles' lens, split along its length
        (ax, ay), (bx, by) = c(30, 30), c(70, 70)
        leaf = intersect(circle(ax, ay, 52 * u), circle(bx, by, 52 * u))
        vein = polygon([c(16, 81), c(81, 16), c(84, 19), c(19, 84)])
        canvas.shape(subtract(leaf, vein), accent, bbox=area)
    elif name == "concert":  # a spotlight: a dot in two rings
        x, y = c(50, 50)
        canvas.shape(circle(x, y, 14 * u), accent, bbox=area)
        canvas.shape(ring(x, y, 28 * u, 7 * u), ink, bbox=area)
        canvas.shape(ring(x, y, 42 * u, 5 * u), ink, alpha=0.6, bbox=area)
    elif name == "boarding":  # a chevron rising to the right, like a wing
        canvas.shape(polygon([c(12, 70), c(50, 24), c(88, 24), c(50, 70)]), accent, bbox=area)
        canvas.shape(polygon([c(30, 84), c(50, 60), c(74, 60), c(54, 84)]), ink, bbox=area)
    elif name == "coupon":  # an open book
        canvas.shape(box(*c(31, 52), 19 * u, 30 * u, 5 * u), accent, bbox=area)
        canvas.shape(box(*c(69, 52), 19 * u, 30 * u, 5 * u), accent, bbox=area)
        canvas.shape(box(*c(50, 54), 2.5 * u, 32 * u, 1 * u), ink, bbox=area)
    elif name == "membership":  # two peaks, the taller one snow-capped
        canvas.shape(polygon([c(8, 84), c(38, 40), c(62, 84)]), ink, alpha=0.7, bbox=area)
        canvas.shape(polygon([c(30, 84), c(62, 18), c(94, 84)]), ink, bbox=area)
        canvas.shape(polygon([c(53, 37), c(62, 18), c(71, 37)]), accent, bbox=area)
    elif name == "poster-event":  # a sun on the meridian
        x, y = c(50, 58)
        sun = subtract(circle(x, y, 30 * u), box(x, y + 20 * u, 40 * u, 20 * u))
        canvas.shape(sun, accent, bbox=area)
        for i, width in enumerate((26, 20, 12)):
            canvas.shape(box(x, y + (6 + i * 10) * u, width * u, 2.5 * u, 2.5 * u), ink, bbox=area)


# ---------------------------------------------------------------- image slots

def draw(name, slot, scale):
    p = PALETTES[name]
    w, h = SIZES[slot]
    canvas = Canvas(w, h, scale)
    if slot == "icon":
        canvas.vertical_gradient(p["top"], p["bottom"])
        draw_mark(canvas, name, 5, 5, 28, p, True)
    elif slot == "thumbnail":
        canvas.shape(box(45, 45, 45, 45, 14), p["top"])
        draw_mark(canvas, name, 15, 15, 60, p, True)
    elif slot == "logo":
        draw_mark(canvas, name, 4, 4, 42, p, False)
        word = WORDMARKS[name]
        cell = min(2.2, (w - 56) / (len(word) * 6 - 1))
        canvas.text(word, 54, (h - 7 * cell) / 2, cell, p["ink"])
    elif slot == "strip":
        canvas.vertical_gradient(p["top"], p["bottom"])
        for i, (x, y, r) in enumerate(((300, 20, 110), (40, 150, 90), (190, 130, 40))):
            canvas.shape(circle(x, y, r), p["soft"], alpha=0.55 if i < 2 else 0.8, bbox=bounds(x, y, r))
        canvas.shape(ring(300, 20, 130, 3), p["accent"], alpha=0.7, bbox=bounds(300, 20, 132))
        draw_mark(canvas, name, 287, 58, 70, p, True)
    elif slot == "background":
        canvas.vertical_gradient(p["top"], p["bottom"])
        cx, cy = 172.5, 300
        canvas.shape(circle(cx, cy, 120), p["accent"], alpha=0.9, bbox=bounds(cx, cy, 120))
        for i in range(7):  # horizon bands over the sun
            y = 318 + i * 16
            canvas.shape(box(cx, y, 172.5, 2 + i * 0.9), p["bottom"], bbox=(0, y - 9, 345, y + 9))
        canvas.shape(ring(cx, cy, 150, 2), p["ink"], alpha=0.35, bbox=bounds(cx, cy, 152))
    elif slot == "primaryLogo":
        word = WORDMARKS[name]
        cell = min(30 / 7, (w - 1) / (len(word) * 6 - 1))
        canvas.text(word, 0, (h - 7 * cell) / 2, cell, p["ink"])
    elif slot == "secondaryLogo":
        word = "SOLSTICE LIVE"
        cell = min(12 / 7, (w - 1) / (len(word) * 6 - 1))
        canvas.text(word, w - text_width(word, cell) - 0.5, (h - 7 * cell) / 2, cell, p["ink"])
    elif slot == "footer":
        for i in range(13):
            x = 143 + (i - 6) * 22
            canvas.shape(box(x, 7.5, 7 if i % 2 else 3, 2, 2), p["accent"], alpha=1.0 if i % 2 else 0.6,
                         bbox=(x - 8, 0, x + 8, 15))
    return canvas.png()


def main(names):
    for name in names or sorted(SLOTS):
        folder = os.path.join(TEMPLATES_DIR, name)
        os.makedirs(folder, exist_ok=True)
        for slot in SLOTS[name]:
            for scale in SCALES:
                suffix = "" if scale == 1 else f"@{scale}x"
                path = os.path.join(folder, f"{slot}{suffix}.png")
                with open(path, "wb") as f:
                    f.write(draw(name, slot, scale))
                print(path[len(TEMPLATES_DIR) + 1:], os.path.getsize(path), "bytes")


if __name__ == "__main__":
    main(sys.argv[1:])
