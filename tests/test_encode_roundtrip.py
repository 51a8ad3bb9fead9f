"""Issue 13: "encode(x) decodes back to x, and nothing encodes to what decode rejects".

For every built-in spec (both backends) and for small specs written here (ill-formed
patterns by sub-form, by literal bytes and alphabet, over two sub-forms without
``combine``, in a packed numbering with skips): for random code point lists and for
every boundary code point alone, ``encode(cps, "strict")`` either raises
UnicodeEncodeError, or gives bytes that ``is_valid`` accepts and
``decode_codepoints`` turns back into *cps*.  The other handlers never produce
bytes that decode rejects either.

"Back into cps" has two exceptions, both documented: wtf-8 and mutf-8 join an
adjacent lead and trail surrogate into one supplementary code point when encoding
(wtf-8.txt 6.1; Modified UTF-8 encodes UTF-16 code units), and a signature at the
start of the bytes is not text (utf-8-bom's U+FEFF, corrected-utf-8's magic number).

Defect 1 of the issue is reproduced exactly at the end.
"""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import encspec
from codec_samples import BACKENDS, SPECS, boundary_cps, code_point_lists, joined_pairs, load_backend
from conftest import encspec_command, examples

ROOT = Path(__file__).resolve().parents[1]

# wtf-8.txt 6.1 (Modified UTF-8 refuses a surrogate pair of code points: its bytes would
# read back as the supplementary code point, wtf-8.txt 4.1)
PAIRS_JOIN = {"wtf-8"}
# the signature's code points (utf-8-encyclopedia-article.txt "Byte order mark";
# corrected-utf-8.txt "magic number": EF B7 9D ED B2 AE 00 0A)
SIGNATURE_CPS = {"utf-8-bom": [0xFEFF], "corrected-utf-8": [0x10E7D, 0xED4E, 0x0, 0xA]}
OTHER_HANDLERS = ["replace", "ignore", "backslashreplace", "xmlcharrefreplace"]


def decoded_back(name, cps, signature=False):
    want = joined_pairs(cps) if name in PAIRS_JOIN else list(cps)
    sig = SIGNATURE_CPS.get(name)
    if not signature and sig and want[:len(sig)] == sig:
        want = want[len(sig):]
    return want


def check_round_trip(mod, name, cps):
    """The rule, for one list of code points."""
    try:
        data = mod.encode(cps, "strict")
    except UnicodeEncodeError as e:
        assert 0 <= e.start < e.end <= len(cps), (cps, e.start, e.end)
        mod.encode(cps[:e.start], "strict")  # what comes before the error encodes
        data = None
    if data is not None:
        assert mod.is_valid(data), f"{name}: encode({cps}) = {data.hex(' ')}, which is not valid"
        assert mod.decode_codepoints(data) == decoded_back(name, cps), \
            f"{name}: encode({cps}) = {data.hex(' ')} decodes to {mod.decode_codepoints(data, 'replace')}"
        if all(0 <= c <= 0x10FFFF for c in cps):
            assert mod.encode("".join(map(chr, cps)), "strict") == data, f"{name}: str and list differ on {cps}"
        if name in SIGNATURE_CPS:
            signed = mod.encode(cps, "strict", signature=True)
            assert mod.is_valid(signed) and mod.decode_codepoints(signed) == decoded_back(name, cps, True)
    elif all(0 <= c <= 0x10FFFF for c in cps):
        with pytest.raises(UnicodeEncodeError):
            mod.encode("".join(map(chr, cps)), "strict")
    for errors in OTHER_HANDLERS:
        out = mod.encode(cps, errors)
        if data is not None:
            assert out == data, f"{name}: errors={errors!r} changes encode({cps}), which strict accepts"
        else:
            assert mod.is_valid(out), f"{name}: encode({cps}, {errors!r}) = {out.hex(' ')}, which is not valid"


# ------------------------------------------------------------------ built-in specs
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_builtin_encode_round_trips(name, backend, data):
    check_round_trip(load_backend(name, backend), name, data.draw(code_point_lists(name), label="code points"))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", SPECS)
def test_builtin_boundary_code_points_round_trip(name, backend):
    mod = load_backend(name, backend)
    for cp in boundary_cps(name) + [-1]:
        check_round_trip(mod, name, [cp])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name, cps", [
    # an unencodable code point between a lead and a trail surrogate: once a handler
    # drops it, the two must not be written as the pair byte sequence wtf-8 rejects
    ("wtf-8", [0xD800, -1, 0xDC00]),
    ("wtf-8", [0xD83D, 0x110000, 0xDE00]),
    ("wtf-8", [0x41, 0xD800, 0x110000, 0x110001, 0xDC00, 0x42]),
    ("mutf-8", [0xD800, -1, 0xDC00]),
    ("cesu-8", [0xD800, -1, 0xDC00]),
])
def test_known_round_trip_cases(name, cps, backend):
    check_round_trip(load_backend(name, backend), name, cps)


# ------------------------------------------------------------------ small specs
def builtin_text(name):
    return (ROOT / "specs" / f"{name}.encspec").read_text(encoding="utf-8")


def variant(name, new_name, add="", drop=(), replace=None):
    """A built-in spec renamed, without its aliases and claims (a property the change breaks is
    not what these tests are about) and the lines matching *drop*, with *replace*
    done, plus *add*."""
    lines = []
    for line in builtin_text(name).splitlines():
        if line.startswith(("claims", "aliases")) or any(re.match(p, line) for p in drop):
            continue
        for old, new in (replace or {}).items():
            line = line.replace(old, new)
        lines.append(f"encoding {new_name}" if line.startswith("encoding ") else line)
    return "\n".join(lines) + "\n" + add + "\n"


LATIN1_PATTERN = 'ill-formed pattern bad: <2 U+0080..U+00FF> "latin-1 range"'

SMALL_SPECS = {
    # defect 1's pattern: a sub-form range, no combine
    "utf-8-latin1-hole": (variant("utf-8", "utf-8-latin1-hole", LATIN1_PATTERN), [0x7F, 0x80, 0xFF, 0x100]),
    # the spec-language page's pattern by literal bytes and ranges, in place of the hole
    "utf-8-byte-pattern": (variant("utf-8", "utf-8-byte-pattern",
                                   'ill-formed pattern surr: ED A0..BF 80..BF "surrogate"',
                                   drop=[r"ill-formed U\+D800"]), []),
    # a pattern inside the 3-byte row
    "utf-8-noncharacters": (variant("utf-8", "utf-8-noncharacters",
                                    'ill-formed pattern nonchar: <3 U+FDD0..U+FDEF> "noncharacter"'),
                            [0xFDCF, 0xFDD0, 0xFDEF, 0xFDF0]),
    # packed numbering with skips (Corrected UTF-8's first three rows) and a pattern
    # by bytes (sub-forms must be direct): C0 80..BF are U+00A0..U+00DF
    "packed-latin1-hole": ("encoding packed-latin1-hole\n"
                           "code-space U+0000..U+1109F\n"
                           "numbering  packed\n"
                           "skip       U+0080..U+009F\n"
                           "skip       U+D800..U+DFFF\n"
                           "form 1: 0xxxxxxx\n"
                           "form 2: 110xxxxx 10xxxxxx\n"
                           "form 3: 1110xxxx 10xxxxxx{2}\n"
                           'ill-formed pattern bad: C0 80..BF "the first 64 of row 2"\n',
                           [0x7F, 0x9F, 0xA0, 0xDF, 0xE0, 0x89F, 0x8A0, 0x1109F, 0x110A0]),
    # an alphabet (UTF-1's trail digits) and a pattern by a literal lead byte
    "utf-1-a1-hole": (variant("utf-1", "utf-1-a1-hole", 'ill-formed pattern a1: A1 trail "the A1 row"'),
                      [0xFF, 0x100, 0x1BD, 0x1BE]),
}


@pytest.fixture(scope="module")
def small_spec_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("specs")
    for key, (text, _) in SMALL_SPECS.items():
        (folder / f"{key}.encspec").write_text(text, encoding="utf-8")
    return folder


def load_small(folder, key):
    return encspec.load(str(folder / f"{key}.encspec"), backend="python")


@pytest.mark.parametrize("key", list(SMALL_SPECS))
@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_small_spec_encode_round_trips(key, small_spec_dir, data):
    mod = load_small(small_spec_dir, key)
    check_round_trip(mod, key, data.draw(code_point_lists("utf-8"), label="code points"))


@pytest.mark.parametrize("key", list(SMALL_SPECS))
def test_small_spec_boundary_code_points_round_trip(key, small_spec_dir):
    mod = load_small(small_spec_dir, key)
    for cp in sorted(set(boundary_cps("utf-8") + SMALL_SPECS[key][1])) + [-1]:
        check_round_trip(mod, key, [cp])


# ------------------------------------------------------------------ defect 1
def encspec_cli(*args, cwd):
    return subprocess.run([*encspec_command(), *args], capture_output=True, text=True, cwd=cwd, timeout=300)


@pytest.fixture
def defect_1_spec(tmp_path):
    """Exactly specs/utf-8.encspec plus the issue's line, claims included."""
    path = tmp_path / "latin1-hole.encspec"
    path.write_text(builtin_text("utf-8") + "\n" + LATIN1_PATTERN + "\n", encoding="utf-8")
    return path


@pytest.fixture
def defect_1_unclaimed(tmp_path):
    """The same without the claims line, so that it builds whatever the properties are."""
    path = tmp_path / "latin1-hole-unclaimed.encspec"
    text = "\n".join(line for line in builtin_text("utf-8").splitlines() if not line.startswith("claims"))
    path.write_text(text + "\n" + LATIN1_PATTERN + "\n", encoding="utf-8")
    return path


def test_defect_1_encode_refuses_what_the_pattern_makes_ill_formed(defect_1_unclaimed):
    mod = encspec.load(str(defect_1_unclaimed), backend="python")
    # decode rejects the pattern's bytes with its reason (as it does today)
    with pytest.raises(UnicodeDecodeError) as d:
        mod.decode(b"\xc2\x80")
    assert (d.value.start, d.value.end, d.value.reason) == (0, 2, "latin-1 range")
    assert not mod.is_valid(b"\xc2\x80")
    # so encode has nothing to give for U+0080..U+00FF
    for cps in ([0x80], "\x80", [0xFF], "\xff"):
        with pytest.raises(UnicodeEncodeError) as e:
            mod.encode(cps, "strict")
        assert (e.value.start, e.value.end) == (0, 1), cps
    with pytest.raises(UnicodeEncodeError) as e:
        mod.encode("A\xe9B")
    assert e.value.start == 1
    assert mod.encode("A\xe9B", "replace") == b"A?B"
    assert mod.encode("A\xe9B", "xmlcharrefreplace") == b"A&#233;B"
    # its neighbours are plain UTF-8 (CPython's codec as the reference)
    for text in ("\x7f", "\u0100", "\u07ff", "\u0800", "\U0010ffff"):
        assert mod.encode(text) == text.encode("utf-8")


def test_defect_1_check_counts_only_valid_sequences(defect_1_unclaimed):
    run = encspec_cli("check", str(defect_1_unclaimed), "--json", cwd=defect_1_unclaimed.parent)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    # Unicode Table 3-7's counts, less the 128 two-byte sequences the pattern makes ill-formed
    assert report["lengths"] == {"1": 128, "2": 1920 - 128, "3": 61440, "4": 1048576}
    # U+0080..U+00FF are in the code space and have no encoding
    assert report["properties"]["total"] is False
    (example,) = report["counterexamples"]["total"]
    assert re.fullmatch(r"U\+00[89A-F][0-9A-F]", example), example


def test_defect_1_exact_spec_cannot_claim_total(defect_1_spec):
    """The issue's spec keeps utf-8's claims line, which claims total: once the
    analysis reads the automaton that claim is false, and a false claim is a spec
    error with a counterexample (docs/pages/spec-language.md, "claims")."""
    with pytest.raises(Exception, match=r"claimed property 'total' does not hold: U\+00[89A-F][0-9A-F]"):
        encspec.load(str(defect_1_spec), backend="python")
    run = encspec_cli("check", str(defect_1_spec), cwd=defect_1_spec.parent)
    assert run.returncode == 2
    assert "claimed property 'total' does not hold" in run.stderr
