"""The single-byte catalogue: every CPython single-byte codec is a built-in spec under
CPython's name and aliases, and equals CPython's codec (CPython 3.11 is the reference).

The catalogue (specs/NAME.encspec and specs/tables/cpython/NAME-*.txt, written by
specs/tables/cpython/extract.py) is every charmap codec CPython ships
(Lib/encodings/*.py with a decoding table, under its own name) plus ascii and
latin_1.  Here, for every one of them and both backends: every single byte decodes
as CPython decodes it, strictly (the same character, or a UnicodeDecodeError with
the same start, end and reason) and with "replace"; seeded random inputs and
hypothesis's decode alike under strict, replace and ignore; every code point (the
sampled sweep of conftest.code_points; all of them under ENCSPEC_SLOW=1) encodes to
the same bytes, each refused run handed to the error handler with the same start,
end and reason; and strictly, the same first error.  Everything goes through the
modules' own functions (no CLI).
"""
from __future__ import annotations

import codecs
import encodings
import importlib
import pkgutil
import random
import subprocess
import sys
from encodings.aliases import aliases as CPYTHON_ALIASES
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import encspec
from codec_samples import load_backend
from conftest import code_points, decoding_differences, examples, single_byte_builtins, unicode_outcome
from encspec.cli import index
from encspec.pipeline import load
from encspec.spec import registry
from encspec.spec.diagnostics import SpecError

ROOT = Path(__file__).resolve().parents[1]
BACKENDS = ["python", "native"]


def cpython_single_byte_codecs() -> list[str]:
    """CPython's own list: ascii, latin_1, and every Lib/encodings module with a decoding
    table whose name no alias takes (encodings.search_function reads the aliases first,
    so CPython's name iso8859_1 is latin_1, not the module iso8859_1)."""
    out = ["ascii", "latin_1"]
    for m in pkgutil.iter_modules(encodings.__path__):
        if m.name in CPYTHON_ALIASES:
            continue
        try:
            module = importlib.import_module(f"encodings.{m.name}")
        except ImportError:   # mbcs, oem: Windows only
            continue
        if hasattr(module, "decoding_table") or hasattr(module, "decoding_map"):
            out.append(m.name)
    return sorted(out)


CATALOGUE = cpython_single_byte_codecs()


def test_the_catalogue_is_every_single_byte_codec_of_cpython():
    assert len(CATALOGUE) == 71
    assert sorted(n for n in single_byte_builtins() if not n.startswith("whatwg-")) == CATALOGUE


@pytest.mark.parametrize("name", CATALOGUE)
def test_each_spec_has_cpythons_aliases_and_cites_its_source(name):
    """The spec's aliases are the ones codecs.lookup reaches (so hp_roman8's csHPRoman8 is
    not: lookup lowercases first), and every spelling CPython takes finds the spec."""
    spec = load(name)[0]
    target = codecs.lookup(name).name
    reached = set()
    for alias, codec in CPYTHON_ALIASES.items():
        try:
            if codec == name and codecs.lookup(alias).name == target:
                reached.add(alias)
        except LookupError:
            continue
    assert set(spec.aliases) == reached
    path = registry.find_builtin(name)
    for alias in [name, *reached]:
        for spelling in (alias, alias.upper(), alias.replace("_", "-"), alias.replace("_", " ")):
            assert registry.find(spelling) == path, spelling
            assert codecs.lookup(spelling).name == target, spelling   # CPython takes it too
    assert spec.source.startswith("CPython 3.") and spec.title.endswith(f"(CPython's {name} codec)")


def test_the_spec_files_and_tables_are_what_extract_writes():
    """specs/tables/cpython/extract.py --charmap --check: the catalogue's spec files, tables
    and encode files are what the running CPython's codecs give (reproducible)."""
    script = ROOT / "specs" / "tables" / "cpython" / "extract.py"
    out = subprocess.run([sys.executable, str(script), "--charmap", "--check"], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_manual_lists_the_catalogue():
    """docs/pages/catalogue.md (encspec build writes it): every built-in once, and every
    catalogue entry in the CPython group with its aliases and source; the nav links it."""
    page = (ROOT / "docs" / "pages" / "catalogue.md").read_text("utf-8")
    rows = {}
    group = None
    for line in page.splitlines():
        if line.startswith("## "):
            group = line[3:]
        elif line.startswith("| `"):
            cells = [c.strip() for c in line.strip("|").split(" | ")]
            assert cells[0].strip("`") not in rows
            rows[cells[0].strip("`")] = (group, cells)
    assert sorted(rows) == sorted(registry.builtin_names())
    for name in CATALOGUE:
        spec = load(name)[0]
        group, (_, aliases, title, source) = rows[name]
        assert group == "CPython's codecs"
        assert aliases == ", ".join(f"`{a}`" for a in spec.aliases) and (title, source) == (spec.title, spec.source)
    assert "catalogue.md" in (ROOT / "docs" / "mkdocs.yml").read_text("utf-8")


# ------------------------------------------------------------------------ decoding
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", CATALOGUE)
def test_every_byte_decodes_as_cpython_decodes_it(name, backend):
    module = load_backend(name, backend)
    every = bytes(range(256))
    assert not decoding_differences(module, name, [bytes([b]) for b in range(256)] + [every], ("strict", "replace"))
    assert module.decode(every, "ignore") == every.decode(name, "ignore")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", CATALOGUE)
def test_random_inputs_decode_as_cpython_decodes_them(name, backend):
    """200 seeded inputs of 1..64 bytes, half of them from the bytes CPython refuses and their
    neighbours (every byte for the codecs that refuse none)."""
    module = load_backend(name, backend)
    refused = [b for b in range(256) if isinstance(unicode_outcome(bytes([b]).decode, name), tuple)]
    near = sorted({x for b in refused for x in (b - 1, b, b + 1) if 0 <= x < 256}) or list(range(256))
    rnd = random.Random(f"cpython-catalogue {name}")
    inputs = [bytes(rnd.choice(near) if rnd.random() < 0.5 else rnd.randrange(256) for _ in range(rnd.randint(1, 64)))
              for _ in range(200)]
    assert not decoding_differences(module, name, inputs)


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=examples(400), deadline=None)
@given(name=st.sampled_from(CATALOGUE), data=st.binary(max_size=40))
def test_any_input_decodes_as_cpython_decodes_it(name, backend, data):
    assert not decoding_differences(load_backend(name, backend), name, [data])


# ------------------------------------------------------------------------ encoding
_RECORDED: list = []


def _record(e: UnicodeEncodeError):
    _RECORDED.append((e.start, e.end, e.reason))
    return "", e.end


codecs.register_error("test_cpython_catalogue.record", _record)

# every code point, surrogates too (by default the BMP and every 61st above it)
EVERY = "".join(map(chr, code_points()))


def _encoded(encode) -> tuple[bytes, list]:
    _RECORDED.clear()
    out = encode(EVERY, "test_cpython_catalogue.record")
    return out, list(_RECORDED)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", CATALOGUE)
def test_every_code_point_encodes_as_cpython_encodes_it(name, backend):
    """One call over every code point: the same bytes, and the error handler called for the
    same runs of refused code points (CPython's charmap, ascii and latin_1 encoders hand a
    whole run to it at once) with the same reason."""
    module = load_backend(name, backend)
    want_bytes, want_errors = _encoded(lambda s, e: s.encode(name, e))
    got_bytes, got_errors = _encoded(module.encode)
    k = next((k for k, (g, w) in enumerate(zip(got_errors, want_errors)) if g != w), None)
    assert k is None and len(got_errors) == len(want_errors), (
        f"error {k}: {got_errors[k] if k is not None else got_errors[-3:]} != "
        f"{want_errors[k] if k is not None else want_errors[-3:]}")
    assert got_bytes == want_bytes


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", CATALOGUE)
def test_strict_encode_errors_are_cpythons(name, backend):
    """Strictly, a refused code point (alone, in a run, a surrogate, beyond the BMP) raises
    where CPython raises, over the same run, with the same reason; all else the same bytes."""
    module = load_backend(name, backend)
    rnd = random.Random(f"cpython-catalogue encode {name}")
    cps = [0x7F, 0x80, 0xA0, 0xFF, 0x100, 0x20AC, 0xD800, 0xDFFF, 0xFFFD, 0xFFFE, 0x10000, 0x10FFFF]
    cps += [rnd.randrange(0x100) for _ in range(40)] + [rnd.randrange(0x3000) for _ in range(40)]
    for a in cps:
        for text in ("ab" + chr(a) + "c", "ab" + chr(a) + chr(rnd.choice(cps)) + "\u4e00c", chr(a)):
            assert unicode_outcome(module.encode, text) == unicode_outcome(text.encode, name), (f"U+{a:04X}", text)


# ------------------------------------------------------------------------ utf-8-sig
BOM = b"\xef\xbb\xbf"


def test_utf_8_sig_is_utf_8_bom():
    """CPython's utf-8-sig is an alias of utf-8-bom, which writes the signature under every name."""
    assert registry.find("utf-8-sig") == registry.find("UTF_8_SIG") == registry.find_builtin("utf-8-bom")
    info = encspec.codec_info("utf-8-sig")
    for text in ("", "a", "\ufeffa", "caf\u00e9 \U0001f600"):
        assert info.encode(text)[0] == text.encode("utf-8-sig")
    with pytest.raises(UnicodeEncodeError) as theirs:
        "ab\ud800c".encode("utf-8-sig")
    with pytest.raises(UnicodeEncodeError) as ours:
        info.encode("ab\ud800c")
    assert (ours.value.start, ours.value.end, ours.value.reason) == (
        theirs.value.start, theirs.value.end, theirs.value.reason)


@pytest.mark.parametrize("backend", BACKENDS)
def test_utf_8_sig_decodes_as_cpythons(backend):
    """Every input of one and two bytes, alone and after the signature, and partial signatures:
    the same text with replace and ignore, and strictly the same error, but that CPython counts
    an error's offsets after a signature from the byte after it (its utf_8_sig.py decodes
    what follows the signature; the exception's object is that), encspec from the data's start."""
    module = load_backend("utf-8-bom", backend)
    inputs = [bytes([a]) for a in range(256)] + [bytes([a, b]) for a in range(0x80, 0x100, 3) for b in range(256)]
    inputs += [BOM[:k] + tail for k in range(4) for tail in (b"", b"a", b"\xff", BOM, b"\xc3\xa9", b"\xe2\x82")]
    bad = []
    for data in inputs + [BOM + x for x in inputs]:
        for errors in ("strict", "replace", "ignore"):
            want = unicode_outcome(lambda d, e: d.decode("utf-8-sig", e), data, errors)
            got = unicode_outcome(module.decode, data, errors)
            if isinstance(want, tuple) and data.startswith(BOM):
                want = (want[0], want[1] + 3, want[2] + 3, want[3])
            if got != want:
                bad.append((data.hex(" "), errors, got, want))
    assert not bad, bad[:5]


# ------------------------------------------------------------------------ the spec language
def test_aliases_may_start_with_a_digit_or_hold_dots(tmp_path):
    """CPython's aliases include 1252 and ansi_x3.4_1968: the spec language says them."""
    spec = tmp_path / "toy.encspec"
    spec.write_text("encoding toy\naliases 1252, windows-1252, ansi_x3.4_1968\n"
                    "code-space U+0000..U+007F\nform ascii: 00..7F\n", "utf-8")
    assert load(str(spec))[0].aliases == ("1252", "windows-1252", "ansi_x3.4_1968")
    spec.write_text("encoding toy\naliases 1252, Windows\ncode-space U+0000..U+007F\nform ascii: 00..7F\n", "utf-8")
    with pytest.raises(SpecError) as e:
        load(str(spec))
    assert "2:15" in str(e.value) and "expected a name (1252, latin-1)" in str(e.value)


def test_an_alias_never_shadows_another_builtins_name(tmp_path):
    """A spec naming another's name as its alias, before it and after it in file order: the
    name wins (a fresh interpreter: the registry reads the specs' folder once)."""
    (tmp_path / "aaa.encspec").write_text("encoding aaa\naliases bbb, ccc\n", "utf-8")
    (tmp_path / "bbb.encspec").write_text("encoding bbb\n", "utf-8")
    (tmp_path / "zzz.encspec").write_text("encoding zzz\naliases bbb, aaa\n", "utf-8")
    code = ("import sys, pathlib\nfrom encspec.spec import registry\n"
            "registry.specs_dir = lambda: pathlib.Path(sys.argv[1])\n"
            "print(*(registry.find_builtin(n).stem for n in ('bbb', 'aaa', 'CCC', 'zzz')))")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["bbb", "aaa", "aaa", "zzz"]


def test_no_builtin_alias_is_another_builtins_name_or_alias():
    """Over generated/index.json (every built-in's name and aliases; build --check keeps it)."""
    seen: dict[str, str] = {}
    for entry in index.read():
        for n in {registry.normalise(x) for x in (entry["name"], *entry["aliases"])}:
            assert seen.setdefault(n, entry["name"]) == entry["name"], (n, seen[n], entry["name"])
    assert len({e["name"] for e in index.read()}) == len(registry.builtin_names())
