"""`encspec chart`: the code page SVG (hand-written, checked cell by cell), the
automaton for Graphviz, and one picture rendered by a real browser.

Graphviz's `dot` and Chromium are needed: a test whose tool is missing is
skipped naming it, or fails under ENCSPEC_REQUIRE_TOOLS=1 (`.ci/run` installs them)."""
from __future__ import annotations

import struct
import subprocess
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import pytest

import tools
from conftest import representative_builtins
from encspec.analyse import charts
from encspec.cli import main
from encspec.pipeline import load
from encspec.spec import registry

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SVG = "{http://www.w3.org/2000/svg}"
TIMEOUT = 300


def tool(binary: str, package: str) -> str:
    """The path of *binary*, or the test is skipped naming it (failed under ENCSPEC_REQUIRE_TOOLS)."""
    return tools.need(lambda: tools.find(binary, hint=f"it is in Debian's {package} package"))


def cells(svg_text: str) -> dict[str, dict]:
    root = ET.fromstring(svg_text.encode("utf-8"))
    out = {}
    for g in root.iter(f"{SVG}g"):
        classes = g.get("class", "").split()
        if "cell" not in classes:
            continue
        texts = {t.get("class"): "".join(t.itertext()) for t in g.iter(f"{SVG}text")}
        out[g.get("data-byte")] = {"classes": set(classes), "hex": texts.get("hex"), "label": texts.get("label"),
                                   "sub": texts.get("sub", ""), "title": "".join(g.find(f"{SVG}title").itertext())}
    return out


def kind(cell) -> str:
    (k,) = cell["classes"] & set(charts.KINDS)
    return k


def test_utf8_codepage_cells():
    svg = (DOCS / "utf_8-codepage.svg").read_text("utf-8")
    cs = cells(svg)
    assert len(cs) == 256
    assert list(cs) == [f"{b:02X}" for b in range(256)]
    assert all(c["hex"] == b for b, c in cs.items())          # each cell shows its byte
    never = {"C0", "C1"} | {f"{b:02X}" for b in range(0xF5, 0x100)}
    partial = {"E0", "ED", "F0", "F4"}
    for b, c in cs.items():
        x = int(b, 16)
        if x < 0x80:
            assert kind(c) == "single" and c["sub"] == f"{x:04X}"
        elif x < 0xC0:
            assert kind(c) == "continuation" and c["label"] == f"+{x - 0x80:02X}"
        elif b in never:
            assert kind(c) == "never", b
        elif b in partial:
            assert kind(c) == "partial", b
        else:
            assert kind(c) == "lead", b
    assert cs["41"]["label"] == "A" and cs["00"]["label"] == "NUL" and cs["20"]["label"] == "SP"
    assert (cs["C2"]["label"], cs["C2"]["sub"]) == ("2", "0080")
    assert (cs["E0"]["label"], cs["E0"]["sub"]) == ("3", "0800")     # lowest non-overlong
    assert (cs["ED"]["label"], cs["ED"]["sub"]) == ("3", "D000")
    assert (cs["F0"]["label"], cs["F0"]["sub"]) == ("4", "10000")
    assert (cs["F4"]["label"], cs["F4"]["sub"]) == ("4", "100000")
    # the article's red cells: C0/C1 as would-be 2-byte leads of 0000/0040, F5 of 140000
    assert (cs["C0"]["label"], cs["C0"]["sub"]) == ("2", "0000")
    assert (cs["C1"]["sub"], cs["F5"]["sub"]) == ("0040", "140000")
    root = ET.fromstring(svg.encode("utf-8"))
    legend = [" ".join(t.itertext()) for t in root.find(f"{SVG}g[@id='legend']").iter(f"{SVG}text")]
    assert len(legend) == 5 and any("only some continuations" in t for t in legend)


def test_corrected_utf8_codepage_reserved_and_no_red():
    cs = cells((DOCS / "corrected_utf_8-codepage.svg").read_text("utf-8"))
    assert kind(cs["FE"]) == kind(cs["FF"]) == "reserved"
    assert not any(kind(c) in ("never", "partial") for c in cs.values())   # packed: no overlongs
    assert (cs["C0"]["label"], cs["C0"]["sub"]) == ("2", "00A0")          # C0 80 is U+00A0


def test_dual_roles_get_the_continuation_dot():
    cs = cells(charts.codepage_svg(load("utf-1")[1]))
    assert kind(cs["41"]) == "single" and "continues" in cs["41"]["classes"]   # 41 is 'A' and a trail digit
    assert "continues" not in cs["20"]["classes"]
    assert kind(cs["FE"]) == "continuation"
    cs = cells(charts.codepage_svg(load("mutf-8")[1]))
    assert kind(cs["00"]) == "never" and kind(cs["C0"]) == "partial"      # only C0 80
    assert kind(cs["ED"]) == "partial" and cs["ED"]["label"] == "3,6"


def test_a_single_byte_table_hole_is_a_never_cell(tmp_path):
    """A code page's byte without a table entry (cp1252's 81) is red and names the reason;
    its neighbours are single-byte codes."""
    (tmp_path / "t.txt").write_text("0\t0x20AC\n2\t0x201A\n", "utf-8")
    (tmp_path / "toy.encspec").write_text(
        'encoding toy\ncode-space U+0000..U+10FFFF\ntable t "t.txt"\nform ascii: 00..7F\n'
        'form high: 80..82 table t\nreason unmapped "character maps to <undefined>"\n', "utf-8")
    cs = cells(charts.codepage_svg(load(str(tmp_path / "toy.encspec"))[1]))
    assert kind(cs["80"]) == kind(cs["82"]) == "single" and (cs["80"]["sub"], cs["82"]["sub"]) == ("20AC", "201A")
    assert kind(cs["81"]) == "never" and "character maps to <undefined>" in cs["81"]["title"]
    assert kind(cs["83"]) == "never" and kind(cs["41"]) == "single"


@pytest.mark.parametrize("spec", representative_builtins())
def test_every_codepage_svg_parses_and_is_what_the_command_writes(spec, tmp_path):
    a = load(spec)[1]
    name = registry.module_name(a.name)
    text = (DOCS / f"{name}-codepage.svg").read_text("utf-8")
    assert len(cells(text)) == 256
    assert text == charts.codepage_svg(a) == charts.codepage_svg(a)      # deterministic
    assert (DOCS / f"{name}-automaton.dot").read_text("utf-8") == charts.automaton_dot(a)


def test_chart_command(tmp_path, capsys):
    assert main(["chart", "utf-8", "--codepage", "-o", str(tmp_path / "cp.svg")]) == 0
    assert (tmp_path / "cp.svg").read_text("utf-8") == (DOCS / "utf_8-codepage.svg").read_text("utf-8")
    assert main(["chart", "utf-8", "--automaton", "-o", str(tmp_path / "a.dot")]) == 0
    assert (tmp_path / "a.dot").read_text("utf-8") == (DOCS / "utf_8-automaton.dot").read_text("utf-8")
    assert main(["chart", "utf-8", "-o", str(tmp_path / "x.svg")]) == 2
    assert main(["chart", "utf-8", "--codepage", "-o", str(tmp_path / "x.png")]) == 2
    capsys.readouterr()


@pytest.mark.parametrize("spec", representative_builtins())
def test_dot_accepts_the_automaton(spec, tmp_path):
    dot = tool("dot", "graphviz")
    name = registry.module_name(load(spec)[1].name)
    # what is tested is that dot reads the file and draws every state, not how well: without
    # crossing minimisation, network simplex passes and splines an ISO-2022 spec's 600
    # states and 2,000 edges take 0.2 s of CPU instead of 9 s
    fast = ["-Gmclimit=0", "-Gnslimit=0", "-Gnslimit1=0", "-Gsplines=false"]
    r = subprocess.run([dot, "-Tsvg", *fast, str(DOCS / f"{name}-automaton.dot")], capture_output=True,
                       timeout=TIMEOUT)
    assert r.returncode == 0, r.stderr.decode()
    root = ET.fromstring(r.stdout)
    titles = {"".join(t.itertext()) for t in root.iter(f"{SVG}title")}
    a = load(spec)[1]
    assert {f"s{s}" for s in range(a.n_states)} <= titles                 # every state drawn


def test_automaton_svg_via_the_command(tmp_path):
    tool("dot", "graphviz")
    assert main(["chart", "wtf-8", "--automaton", "-o", str(tmp_path / "a.svg")]) == 0
    root = ET.parse(tmp_path / "a.svg").getroot()
    texts = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
    assert "ED" in texts and "80..BF" in texts                             # byte-range edges
    assert "surrogate pair byte sequence" in texts and "char" in texts     # accepting actions


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """A tiny PNG reader: (width, height, rows of raw pixel bytes) for 8-bit RGB/RGBA."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if ctype == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and color in (2, 6), (depth, color)
            bpp = 3 if color == 2 else 4
        elif ctype == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows


def test_chromium_renders_the_codepage(tmp_path):
    chromium = tool("chromium", "chromium")
    png = tmp_path / "codepage.png"
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           f"--user-data-dir={tmp_path / 'profile'}", f"--screenshot={png}", "--window-size=980,900",
           (DOCS / "corrected_utf_8-codepage.svg").as_uri()]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
    assert png.exists(), r.stderr[-2000:]
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
    width, height, rows = png_pixels(data)
    assert (width, height) == (980, 900)
    bpp = len(rows[0]) // width
    colours = {row[i:i + 3] for row in rows[::7] for i in range(0, len(row), bpp * 5)}
    assert len(colours) > 20                                              # not blank
    # the chart's own colours are there: the blue single-byte cells and the grey reserved ones
    assert bytes.fromhex("9fc5e8") in colours and bytes.fromhex("b7b7b7") in colours
