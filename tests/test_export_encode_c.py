"""The C export's encoder equals the Python module's (issue 28 item 2).

run-encode (the protocol of the exports' shared interface: `strict|replace[ sig]
HEX ...` a line, `bytes HEX` or `error START END REASON` back) is driven through
NAME_encode32, through NAME_encode8 (--string) and through the streaming encoder
(--stream); the expected answers are the Python module's `encode` and
IncrementalEncoder (the reference), on the spec's encode vectors and on seeded
random texts mixing encodable code points, unencodable ones, lone surrogates,
sequence starters and values beyond U+10FFFF.  `make check` runs the package's
own encode vectors.
"""
from __future__ import annotations

import os
import random
import re
import subprocess
from pathlib import Path

import pytest

import encspec
import tools
from conftest import ENCODE_OTHERS, ENCODE_SPECS, exported_once, run_encode_lines, spec_automaton, spec_encoder
from encspec.emit import description, package_tests
from encspec.spec import registry

pytestmark = pytest.mark.slow  # compiles C: ENCSPEC_SLOW=1 (CI) runs it

KINDS = list(ENCODE_SPECS)
OTHERS = ENCODE_OTHERS
SPECS = KINDS + OTHERS + ["whatwg-replacement"]  # undecodable: the C export takes it
N_RANDOM = 300
TIMEOUT = 600


automaton, encoder = spec_automaton, spec_encoder


def cc() -> str:
    return tools.need(lambda: tools.find("cc", hint="it is in Debian's gcc package"))


@pytest.fixture(scope="module")
def packages(tmp_path_factory):
    """spec -> its exported C package's folder (exported once per module)."""
    return exported_once(tmp_path_factory, "c")


def run_encode(folder: Path, lines: list[str], *args: str) -> list[str]:
    return run_encode_lines(folder, lines, args, dict(os.environ, CC=cc()), TIMEOUT)


def case_line(mode: str, cps: list[int], sig: bool = False, cuts: tuple[int, ...] = ()) -> str:
    parts = [mode + (" sig" if sig else "")]
    for k, cp in enumerate(cps):
        if k in cuts:
            parts.append("|")
        parts.append(f"{cp:X}")
    if len(cps) in cuts:
        parts.append("|")
    return " ".join(parts)


def expected(spec: str, cps: list[int], mode: str, sig: bool = False) -> str:
    """The Python module's answer, as run-encode prints it."""
    module = encspec.load(spec)
    try:
        data = module.encode(cps, mode, signature=sig)
    except UnicodeEncodeError as e:
        return f"error {e.start} {e.end} {e.reason}"
    return "bytes " + (data.hex().upper() or "-")


def random_text(spec: str, rng: random.Random) -> list[int]:
    """Code points: mostly encodable (drawn from the description's runs), some not,
    lone surrogates (leads before trails too), sequences and their starters, and
    values beyond U+10FFFF."""
    e = encoder(spec)
    good = [r for r in e.runs if r.kind not in ("none", "counted")]
    out: list[int] = []
    for _ in range(rng.randrange(0, 12)):
        roll = rng.random()
        if roll < 0.55 and good:
            r = rng.choice(good)
            out.append(rng.randint(r.first, min(r.last, r.first + 0xFFFF)))
        elif roll < 0.65:
            out.append(rng.randint(0xD800, 0xDFFF))
        elif roll < 0.7:
            out += [rng.randint(0xD800, 0xDBFF), rng.randint(0xDC00, 0xDFFF)]
        elif roll < 0.8 and e.sequences:
            cps, _ = rng.choice(e.sequences)
            out += list(cps[:rng.randint(1, len(cps))])
        elif roll < 0.9:
            out.append(rng.randint(0, 0x10FFFF))
        else:
            out.append(rng.choice([0x110000, 0x7FFFFFFF, 0xFFFFFFFF, rng.randint(0x110000, 0xFFFFFFFF)]))
    return [cp for cp in out if not ((r := e.run_of(cp)) is not None and r.kind == "counted")]


def texts(spec: str) -> list[list[int]]:
    """The encode vectors' code points and seeded random texts."""
    _, cases = package_tests.encode_cases(automaton(spec))
    e = encoder(spec)
    out = [c["code_points"] for c in cases
           if all(cp <= 0xFFFFFFFF and not ((r := e.run_of(cp)) is not None and r.kind == "counted")
                  for cp in c["code_points"])]
    rng = random.Random(spec)
    return out + [random_text(spec, rng) for _ in range(N_RANDOM)]


def compare(spec: str, lines: list[str], got: list[str], want: list[str]) -> None:
    bad = [(line, g, w) for line, g, w in zip(lines, got, want) if g != w]
    assert not bad, f"{spec}: {len(bad)} of {len(lines)} differ, e.g.\n" + "\n".join(
        f"  {line}\n    C:      {g}\n    Python: {w}" for line, g, w in bad[:5])


@pytest.mark.parametrize("spec", SPECS)
def test_c_encode32_equals_the_python_module(packages, spec):
    """NAME_encode32, strict (first error's span and reason) and replace."""
    items = texts(spec)
    lines = [case_line(mode, cps) for cps in items for mode in ("strict", "replace")]
    want = [expected(spec, cps, mode) for cps in items for mode in ("strict", "replace")]
    compare(spec, lines, run_encode(packages(spec), lines), want)


@pytest.mark.parametrize("spec", SPECS)
def test_c_encode8_equals_the_python_module(packages, spec):
    """NAME_encode8 (the text as UTF-8, lone surrogates as their three bytes)."""
    items = [cps for cps in texts(spec) if all(cp <= 0x10FFFF for cp in cps)]
    lines = [case_line(mode, cps) for cps in items for mode in ("strict", "replace")]
    want = [expected(spec, cps, mode) for cps in items for mode in ("strict", "replace")]
    compare(spec, lines, run_encode(packages(spec), lines, "--string"), want)


BLOCK_SPECS = ["utf-8", "utf-16le", "utf-16be", "utf-32le", "utf-32be", "latin-1", "mutf-8", "wtf-8", "wtf-16", "gb18030", "big5hkscs"]
INTRUDERS = [0x0, 0x80, 0xFF, 0x100, 0x20AC, 0xD800, 0xDBFF, 0xDC00, 0xFFFF, 0x1F600, 0x110000, 0xFFFFFFFF]


def block_texts(spec: str) -> list[list[int]]:
    """Texts of 200 code points, each drawn from ASCII or from the BMP beyond it (where
    the spec's bytes are the code point's own number, ASCII, Latin-1, UTF-16's and
    UTF-32's code units, the engine copies them 64 at a time), alone and with another
    code point (unencodable, surrogates, a lead then a trail, beyond the BMP or
    U+10FFFF) at and around the blocks' edges."""
    rng = random.Random("blocks " + spec)
    module = encspec.load(spec)
    pools = [list(range(0x20, 0x7F)), [cp for cp in (rng.randint(0x80, 0xD7FF) for _ in range(40))
                                       if _encodes(module, cp)]]
    out = []
    for plain in [p for p in pools if p]:
        out.append([rng.choice(plain) for _ in range(200)])
        for at in (0, 1, 63, 64, 65, 127, 128, 191, 199):
            for intruder in INTRUDERS:
                text = [rng.choice(plain) for _ in range(200)]
                text[at] = intruder
                out.append(text)
            text = [rng.choice(plain) for _ in range(200)]
            text[at:at + 2] = [0xD83D, 0xDE00]
            out.append(text[:200])
    return out


def _encodes(module, cp: int) -> bool:
    try:
        module.encode([cp])
    except UnicodeEncodeError:
        return False
    return True


@pytest.mark.parametrize("spec", BLOCK_SPECS)
def test_c_encoder_blocks_of_code_units_equal_the_python_module(packages, spec):
    """Long runs of code units with one other code point at a block's edge: NAME_encode32,
    NAME_encode8 and the streaming encoder (pieces of 70), strict and replace."""
    items = block_texts(spec)
    lines = [case_line(mode, cps) for cps in items for mode in ("strict", "replace")]
    want = [expected(spec, cps, mode) for cps in items for mode in ("strict", "replace")]
    compare(spec, lines, run_encode(packages(spec), lines), want)
    utf8 = [cps for cps in items if all(cp <= 0x10FFFF for cp in cps)]
    lines = [case_line(mode, cps) for cps in utf8 for mode in ("strict", "replace")]
    want = [expected(spec, cps, mode) for cps in utf8 for mode in ("strict", "replace")]
    compare(spec, lines, run_encode(packages(spec), lines, "--string"), want)
    lines = [case_line(mode, cps, cuts=(70, 140)) for cps in items for mode in ("strict", "replace")]
    want = [streamed(spec, [cps[:70], cps[70:140], cps[140:]], mode) for cps in items for mode in ("strict", "replace")]
    got = run_encode(packages(spec), lines, "--stream")
    compare(spec, lines, [without_span(g) for g in got], want)


@pytest.mark.parametrize("spec", ["utf-16", "utf-32", "utf-8", "utf-ebcdic"])
def test_c_encode_writes_the_signature_when_asked(packages, spec):
    items = texts(spec)[:50]
    lines = [case_line(mode, cps, sig=True) for cps in items for mode in ("strict", "replace")]
    want = [expected(spec, cps, mode, sig=True) for cps in items for mode in ("strict", "replace")]
    compare(spec, lines, run_encode(packages(spec), lines), want)
    fits = [k for k, cps in enumerate(items) for _ in range(2) if all(cp <= 0x10FFFF for cp in cps)]
    lines = [case_line(mode, items[k], sig=True) for k in sorted(set(fits)) for mode in ("strict", "replace")]
    want = [expected(spec, items[k], mode, sig=True) for k in sorted(set(fits)) for mode in ("strict", "replace")]
    compare(spec, lines, run_encode(packages(spec), lines, "--string"), want)


def streamed(spec: str, pieces: list[list[int]], mode: str) -> str:
    """The Python module's IncrementalEncoder over *pieces*, then final: its bytes, or
    "error" and the reason (its positions count from a held-back tail, the C ones from
    the first code point fed: compared apart)."""
    enc = encspec.load(spec).IncrementalEncoder(mode)
    out = b""
    try:
        for piece in pieces:
            out += enc.encode(piece)
        out += enc.encode([], final=True)
    except UnicodeEncodeError as e:
        return f"error {e.reason}"
    return "bytes " + (out.hex().upper() or "-")


def without_span(line: str) -> str:
    if line.startswith("error "):
        return "error " + line.split(" ", 3)[3]
    return line


@pytest.mark.parametrize("spec", ["utf-8", "wtf-8", "wtf-16", "utf-16", "big5hkscs", "euc-jis-2004", "gb18030",
                                  "cp1252", "utf-ebcdic"])
def test_c_streaming_split_at_every_offset(packages, spec):
    """The streaming encoder, each short text split in two at every offset and in
    three at random, equals the IncrementalEncoder fed the same pieces."""
    rng = random.Random(spec)
    lines, want = [], []
    for cps in texts(spec)[:120]:
        splits = [(k,) for k in range(len(cps) + 1)]
        splits += [tuple(sorted(rng.sample(range(len(cps) + 1), 2))) for _ in range(3) if len(cps) >= 1]
        for cuts in splits:
            pieces = [cps[a:b] for a, b in zip((0, *cuts), (*cuts, len(cps)))]
            for mode in ("strict", "replace"):
                lines.append(case_line(mode, cps, cuts=cuts))
                want.append(streamed(spec, pieces, mode))
    got = run_encode(packages(spec), lines, "--stream")
    compare(spec, lines, [without_span(g) for g in got], want)


def test_c_streaming_error_positions_count_every_code_point_fed(packages):
    """A stream's error positions count from its first code point, across pieces."""
    got = run_encode(packages("utf-8"), ["strict 41 42 | 43 D800 44", "strict 41 | DC00 | 42"], "--stream")
    assert got == ["error 3 4 surrogates not allowed", "error 1 2 surrogates not allowed"]


def test_c_streaming_holds_back_the_start_of_a_sequence(packages):
    """big5hkscs writes U+00CA U+0304 as one: a piece ending with U+00CA holds it
    back until the next piece (or the end) decides; U+00CA alone has its own bytes."""
    module = encspec.load("big5hkscs")
    joined, alone = module.encode([0xCA, 0x304]), module.encode([0xCA])
    assert joined != alone[:len(joined)]
    got = run_encode(packages("big5hkscs"), ["strict CA | 304", "strict CA |", "strict 41 CA | 42"], "--stream")
    assert got == ["bytes " + joined.hex().upper(), "bytes " + alone.hex().upper(),
                   "bytes " + module.encode([0x41, 0xCA, 0x42]).hex().upper()]


def test_c_wtf8_joins_a_pair_and_wtf16_refuses_it(packages):
    """WTF-8 writes a lead then a trail as the one supplementary code point (6.1);
    WTF-16 sends the trail to the handler (its pair form would read it back so)."""
    assert run_encode(packages("wtf-8"), ["strict D83D DE00"]) == ["bytes F09F9880"]
    assert run_encode(packages("wtf-16"), ["strict D83D DE00"]) == [
        f"error 1 2 {description.PAIR_REASON}"]
    assert run_encode(packages("wtf-16"), ["replace D83D DE00"]) == ["bytes 3DD83F00"]


def _compiled_output(tmp_path: Path, folder: Path, prog: Path, mod: str = "utf_8") -> str:
    """What C program *prog*, built against the package of module *mod* in *folder*, prints."""
    exe = tmp_path / prog.stem
    subprocess.run([cc(), "-std=c99", "-I", str(folder / "include"), "-o", str(exe), str(prog),
                    str(folder / f"{mod}.c")], check=True, timeout=TIMEOUT)
    return subprocess.run([str(exe)], capture_output=True, text=True, timeout=TIMEOUT).stdout


def test_c_encode_reports_invalid_utf8_input(tmp_path, packages):
    """encode8 refuses input that is not UTF-8 (an overlong here), writing nothing."""
    folder = packages("utf-8")
    prog = tmp_path / "bad.c"
    prog.write_text('#include <stdio.h>\n#include <encspec/utf_8.h>\nint main(void) {\n'
                    '    unsigned char out[16]; utf_8_encoded res;\n'
                    '    int s = utf_8_encode8((const unsigned char *)"AB\\xC0\\x80", 4, out, sizeof out, 0, &res);\n'
                    '    printf("%d %lu %lu %s\\n", s, (unsigned long)res.error_start, (unsigned long)res.length,'
                    ' res.reason);\n    return 0;\n}\n', "utf-8")
    out = _compiled_output(tmp_path, folder, prog)
    assert out == "3 2 0 invalid UTF-8 in the input\n"


def test_c_encode_says_the_room_it_needs(tmp_path, packages):
    """With too little room: ENCODE_ROOM and the length the text needs; out NULL measures."""
    folder = packages("utf-8")
    prog = tmp_path / "room.c"
    prog.write_text('#include <stdio.h>\n#include <encspec/utf_8.h>\nint main(void) {\n'
                    '    uint32_t cps[3] = { 0x41, 0xE9, 0x20AC }; unsigned char out[4]; utf_8_encoded res;\n'
                    '    int a = utf_8_encode32(cps, 3, out, sizeof out, 0, &res); size_t n = res.length;\n'
                    '    int b = utf_8_encode32(cps, 3, NULL, 0, 0, &res);\n'
                    '    printf("%d %lu %d %lu %02X%02X%02X\\n", a, (unsigned long)n, b, (unsigned long)res.length,'
                    ' out[0], out[1], out[2]);\n    return 0;\n}\n', "utf-8")
    out = _compiled_output(tmp_path, folder, prog)
    assert out == "2 6 2 6 41C3A9\n"


def test_c_encode8_copies_ascii_runs_as_room_allows(tmp_path, packages):
    """encode8 copies a run of ASCII straight to the output (64 bytes a step): with room for
    part of the run it writes what fits and says the length the whole text needs."""
    folder = packages("utf-8")
    text = "".join(chr(0x21 + k % 90) for k in range(300)) + "\u00e9" + "x" * 70
    data = text.encode()
    prog = tmp_path / "ascii.c"
    prog.write_text('#include <stdio.h>\n#include <string.h>\n#include <encspec/utf_8.h>\n'
                    f'static const unsigned char text[] = {{ {", ".join(str(b) for b in data)} }};\n'
                    'int main(void) {\n    unsigned char out[400]; utf_8_encoded res; size_t room;\n'
                    '    for (room = 0; room <= sizeof text; room += 37) {\n'
                    '        int s; memset(out, 0, sizeof out);\n'
                    '        s = utf_8_encode8(text, sizeof text, out, room, 0, &res);\n'
                    '        printf("%d %lu %d\\n", s, (unsigned long)res.length,'
                    ' memcmp(out, text, room) == 0 && out[room] == 0);\n    }\n    return 0;\n}\n', "utf-8")
    rooms = range(0, len(data) + 1, 37)
    want = "".join(f"{0 if room >= len(data) else 2} {len(data)} 1\n" for room in rooms)
    assert _compiled_output(tmp_path, folder, prog) == want


@pytest.mark.parametrize("spec", ["utf-8", "utf-16le", "gb18030"])
def test_c_encode_after_prepare_equals_the_python_module(tmp_path, packages, spec):
    """After NAME_encode_prepare() (the memo fixed: beyond the BMP the slow path answers),
    code points of every plane still encode as the module's, before and after it."""
    folder = packages(spec)
    mod = registry.module_name(spec)
    cps = [0x41, 0xE9, 0x20AC, 0x1F600, 0x42, 0x1F600, 0x10FFFD, 0x4E2D, 0x1F601, 0x43]
    prog = tmp_path / "prepare.c"
    prog.write_text(f'#include <stdio.h>\n#include <encspec/{mod}.h>\n'
                    'static void show(const uint32_t *cps, size_t n) {\n'
                    f'    unsigned char out[128]; {mod}_encoded res; size_t k;\n'
                    f'    int status = {mod}_encode32(cps, n, out, sizeof out, 0, &res);\n'
                    '    printf("%d ", status);\n'
                    '    for (k = 0; k < res.length; k++) printf("%02X", out[k]);\n'
                    '    printf("\\n");\n}\n'
                    'int main(void) {\n'
                    f'    uint32_t cps[] = {{ {", ".join(hex(c) for c in cps)} }};\n'
                    f'    show(cps + 3, 1); {mod}_encode_prepare(); show(cps, 10); show(cps + 3, 4);\n'
                    '    return 0;\n}\n', "utf-8")
    module = encspec.load(spec)
    want = "".join(f"0 {module.encode(c).hex().upper()}\n" for c in (cps[3:4], cps, cps[3:7]))
    assert _compiled_output(tmp_path, folder, prog, mod) == want


@pytest.mark.parametrize("spec", ["utf-8", "big5hkscs", "wtf-16", "utf-ebcdic"])
def test_c_make_check_runs_the_encode_vectors(packages, spec):
    """The package's own `make check` builds with strict warnings and passes its encode vectors."""
    folder = packages(spec)
    env = dict(os.environ, CC=cc(), CFLAGS="-O1 -std=c99 -Wall -Wextra -pedantic -Werror")
    proc = subprocess.run(["make", "check"], cwd=folder, capture_output=True, text=True, timeout=TIMEOUT, env=env)
    if proc.returncode != 0 and "make: not found" in proc.stderr:
        tools.missing("make is not on this machine")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert " encode vectors passed" in proc.stdout
    _, cases = package_tests.encode_cases(automaton(spec))
    assert f"{len(cases)} of {len(cases)} encode vectors passed" in proc.stdout


@pytest.mark.parametrize("spec", ["utf-8", "cp1252", "utf-16"])
def test_c_readme_encode_example_prints_the_python_modules_bytes(tmp_path, packages, spec):
    """The README's second example (encode.c), built as the README says, prints
    encode("héllo") in hex (errors="replace" where strict fails)."""
    folder = packages(spec)
    text = (folder / "README.md").read_text("utf-8")
    blocks = re.findall(r"^```c\n(.*?)^```$", text, re.M | re.S)
    assert len(blocks) == 2 and "_encode8(" in blocks[1]
    (tmp_path / "encode.c").write_text(blocks[1], "utf-8")
    exe = tmp_path / "encode"
    subprocess.run([cc(), "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-I", str(folder / "include"),
                    "-o", str(exe), str(tmp_path / "encode.c"), str(folder / f"{registry.module_name(spec)}.c")],
                   check=True, timeout=TIMEOUT)
    out = subprocess.run([str(exe)], capture_output=True, text=True, timeout=TIMEOUT).stdout
    assert out == encspec.load(spec).encode("h\u00e9llo", "replace", signature=False).hex().upper() + "\n"


def test_c_exports_whatwg_replacement_decoding_any_input_to_one_error(packages):
    """The undecodable spec exports: its decoder makes any non-empty input one error
    (as `encspec tokens`), its encoder writes UTF-8 (unverified: nothing decodes)."""
    folder = packages("whatwg-replacement")
    module = encspec.load("whatwg-replacement")
    inputs = [b"", b"A", "h\u00e9llo".encode("utf-8"), b"\xff\xfe\x00", bytes(range(256))]
    env = dict(os.environ, CC=cc())
    proc = subprocess.run([str(folder / "run-tokens"), "--batch"], input="".join(d.hex() + "\n" for d in inputs),
                          capture_output=True, text=True, timeout=TIMEOUT, env=env)
    assert proc.returncode == 0, proc.stderr
    want = "".join("".join(f"error {s} {e}\n" for k, s, e, *_ in module.tokens(d)) + "end\n" for d in inputs)
    assert proc.stdout == want
    assert want.count("error 0 ") == 4
    assert run_encode(folder, ["strict 41 E9 20AC 1F600"]) == ["bytes 41C3A9E282ACF09F9880"]


@pytest.mark.parametrize("spec", ["utf-8", "wtf-8", "wtf-16", "big5hkscs", "gb18030", "utf-ebcdic"])
def test_c_encoder_runs_clean_under_sanitizers(tmp_path, packages, spec):
    """run_encode built with AddressSanitizer and UBSan, on the same texts in every mode
    (one-shot, UTF-8, streamed in three pieces), gives the same answers as the plain build."""
    folder = packages(spec)
    exe = tmp_path / "run_encode-asan"
    cmd = [cc(), "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-O1", "-g", "-fsanitize=address,undefined",
           "-fno-sanitize-recover=all", "-fno-omit-frame-pointer", "-I", str(folder / "include"), "-o", str(exe),
           str(folder / "run_encode.c"), str(folder / f"{registry.module_name(spec)}.c")]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    items = texts(spec)[:150]
    rng = random.Random(spec)
    plain = [case_line(mode, cps) for cps in items for mode in ("strict", "replace")]
    streamed_lines = [case_line(mode, cps, cuts=tuple(sorted(rng.sample(range(len(cps) + 1), min(2, len(cps) + 1)))))
                      for cps in items for mode in ("strict", "replace")]
    utf8 = [line for line, cps in zip(plain, [c for c in items for _ in range(2)]) if all(cp <= 0x10FFFF for cp in cps)]
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1", UBSAN_OPTIONS="print_stacktrace=1")
    for args, lines in (((), plain), (("--string",), utf8), (("--stream",), streamed_lines)):
        got = subprocess.run([str(exe), *args], input="".join(x + "\n" for x in lines), capture_output=True,
                             text=True, timeout=TIMEOUT, env=env)
        assert got.returncode == 0, got.stderr[-3000:]
        assert got.stdout.split("\n")[:-1] == run_encode(folder, lines, *args)
