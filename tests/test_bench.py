"""``encspec bench`` prints what it promises: every section, every column (a figure, or
"n/a" and why), the machine, JSON with the same; the outside tools' columns are timed
when the tool is there and say so when it is not; bad flags are one line and exit 2.
A benchmark, not a test: nothing here asserts a speed.
"""
from __future__ import annotations

import json
import re

import pytest

import encspec
import tools
from conftest import run_cli as run
from encspec.bench import run as bench
from encspec.bench import tools as bench_tools
from encspec.bench.report import TITLES

QUICK = ["bench", "--quick", "--size", "4KiB", "--repeat", "1", "--spec", "utf-8"]
# a cell of a column other than CPython's: MB/s and the ratio to CPython, or n/a and why
CELL = re.compile(r"n/a \((?:[^()]|\([^()]*\))*\)|[\d,]+\.\d\*? \(\d+\.\d\dx\)")


@pytest.fixture(scope="module")
def report():
    """The JSON of one quick run on a tiny corpus."""
    import contextlib
    import io

    from encspec.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(QUICK + ["--json"])
    assert rc in (0, None)
    return json.loads(out.getvalue())


def test_json_has_the_machine_and_every_section_and_column(report):
    m = report["machine"]
    for key in ("cpu", "arch", "simd", "cores", "python", "compiler", "iconv", "node"):
        assert key in m
    if m["arch"] in ("x86_64", "AMD64"):
        assert set(m["simd"]) == {"sse4_1", "avx2", "avx512bw"}
    rows = report["rows"]
    assert {r["op"] for r in rows} == set(bench.SECTIONS)
    assert {r["corpus"] for r in rows} == set(bench.CORPORA)
    for r in rows:
        for key in ("spec", "corpus", "errors", "bytes", "cpython_codec", "cpu_seconds", "mb_per_s",
                    "ratio_to_cpython", "na", "notes"):
            assert key in r
        for column in bench.SECTIONS[r["op"]]:
            assert (column in r["mb_per_s"]) != (column in r["na"]), (r["op"], column, r)
        assert "cpython" in r["mb_per_s"] and r["ratio_to_cpython"]["cpython"] == 1
    replace = {r["errors"] for r in rows if r["op"] == "replace"}
    assert replace == {"replace 1%", "replace 10%", "surrogateescape 1%", "surrogateescape 10%"}
    unencodable = {r["errors"] for r in rows if r["op"] == "unencodable"}
    assert unencodable == {f"{h} {rate}" for h in bench.UNENCODABLE_HANDLERS for rate in ("1%", "10%")}
    assert {r["spec"] for r in rows if r["op"] == "transcode"} == {"utf-8 -> utf-8"}
    assert all(r["peak_kib"]["native"] > 0 for r in rows if r["op"] == "transcode")


def test_the_native_python_and_token_loop_columns_have_figures(report):
    for r in report["rows"]:
        if r["op"] == "decode":
            for column in ("native", "python", "token loop"):
                assert r["mb_per_s"][column] > 0, (column, r)
        if r["op"] == "incremental":
            for column in ("cpython", "native", "python"):
                assert r["mb_per_s"][column] > 0, (column, r)


def test_iconv_column_has_figures_when_iconv_is_there(report):
    tools.need(tools.iconv)
    for r in report["rows"]:
        if r["op"] in ("decode", "encode", "validate", "transcode"):
            assert r["mb_per_s"].get("iconv", 0) > 0, r


def test_node_columns_have_figures_when_node_is_there(report):
    tools.need(tools.node)
    for r in report["rows"]:
        if r["op"] == "validate":
            assert r["mb_per_s"]["node isUtf8"] > 0
        if r["op"] == "decode" or r["op"] == "replace" and r["errors"].startswith("replace "):
            assert r["mb_per_s"]["node TextDecoder"] > 0, r


def test_text_output_prints_every_section_and_column(capsys):
    rc, out, err = run(capsys, *QUICK)
    assert rc in (0, None), err
    assert out.startswith("# ") and "cores" in out.splitlines()[0] and "CPython" in out.splitlines()[0]
    for op, title in TITLES.items():
        assert title in out, op
        block = out.split(title + "\n", 1)[1].split("\n\n", 1)[0].splitlines()
        head = block[0]
        for column in bench.SECTIONS[op]:
            assert f" {column}" in head, (op, column)
        assert len(block) == 1 + {"replace": 16, "transcode": 4, "unencodable": 48, "small": 24}.get(op, 4)
        for line in block[1:]:  # a figure or n/a in every cell of the section's columns
            assert len(CELL.findall(line)) == len(bench.SECTIONS[op]) - 1, (op, line)
    assert "NATIVE / CPYTHON" in out


def test_missing_tools_say_so(capsys, monkeypatch):
    """Without node and iconv the columns stay, each cell saying which tool is missing."""
    real = bench_tools.find_tool
    monkeypatch.setattr(bench_tools, "find_tool", lambda name: None if name in ("node", "iconv") else real(name))
    rc, out, err = run(capsys, *QUICK, "--section", "validate", "--section", "decode", "--no-export")
    assert rc in (0, None), err
    decode = out.split(TITLES["decode"] + "\n", 1)[1].split("\n\n", 1)[0].splitlines()
    validate = out.split(TITLES["validate"] + "\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert TITLES["encode"] not in out and TITLES["transcode"] not in out
    for line in decode[1:]:
        assert line.count("n/a (no iconv)") == 1 and line.count("n/a (no node)") == 1, line
        assert "n/a (not asked (--no-export))" in line
    for line in validate[1:]:
        assert line.count("n/a (no iconv)") == 1 and line.count("n/a (no node)") == 1, line


@pytest.mark.parametrize("argv,message", [
    (["--repeat", "0"], "Invalid value for '--repeat'"),
    (["--size", "lots"], "--size: cannot read 'lots'"),
    (["--size", "0"], "--size: cannot read '0'"),
    (["--section", "bogus"], "Invalid value for '--section'"),
    (["--bogus"], "No such option '--bogus'"),
    (["--spec", "nope"], "nope: unknown encoding"),
    (["--export", "c", "--no-export"], "--export c and --no-export cannot be used together"),
    (["--no-invalid", "--no-encode", "--section", "replace", "--section", "encode"], "no section left to run"),
])
def test_bad_flags_are_one_line_and_fail(capsys, argv, message):
    rc, out, err = run(capsys, "bench", *argv)
    assert rc == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("encspec: error: ") and message in lines[0], err


@pytest.mark.parametrize("kind", bench.CORPORA)
def test_token_loop_and_transcode_helpers_time_the_right_thing(kind):
    """The token loop decodes what decode does, and the transcode helper writes what
    the target's encoder writes (what their columns time)."""
    text = bench.corpus(kind, 3000)
    py = encspec.load("utf-8", backend="python")
    assert bench.token_loop(py, text.encode()) == text
    cu = encspec.load("corrected-utf-8")
    assert bench.transcode_stream(encspec.load("utf-8"), cu, text.encode()) == cu.encode(text)
    assert bench.cpython_transcode("utf-8", "utf-16-le", text.encode()) == len(text.encode("utf-16-le"))


@pytest.mark.parametrize("kind", bench.CORPORA)
def test_incremental_helpers_cut_inside_characters_and_lose_none(kind):
    """The incremental rows' chunks fall inside characters (the decoder's pending bytes are
    timed) and the helper counts every character CPython's own decoder gives."""
    import codecs
    text = bench.corpus(kind, 8 * bench.CHUNK)
    data = text.encode("utf-8")
    pieces = bench.chunks(data)
    assert b"".join(pieces) == data and {len(p) for p in pieces[:-1]} == {bench.CHUNK}
    if kind in ("cjk", "emoji"):  # mostly multi-byte characters: some cut falls inside one
        assert any(0x80 <= p[0] < 0xC0 for p in pieces[1:])
    assert bench.chunked_text(codecs.getincrementaldecoder("utf-8")(), pieces) == text
    assert bench.chunked_decode(encspec.load("utf-8").IncrementalDecoder(), pieces) == len(text)


def _cpython_big5_pairs() -> int:
    """The two-byte sequences CPython's own big5 codec decodes (the independent count)."""
    trails = [*range(0x40, 0x7F), *range(0xA1, 0xFF)]
    n = 0
    for lead in range(0xA1, 0xFA):
        for trail in trails:
            try:
                bytes([lead, trail]).decode("big5")
            except UnicodeDecodeError:
                continue
            n += 1
    return n


def test_the_memory_table_reads_the_modules_public_surface():
    """bench's memory table comes from a module's memory(), not its private names: big5's one
    table maps exactly the pairs CPython's big5 decodes, and a spec without tables has no row."""
    [row] = bench.table_memory(["big5"])
    assert (row.spec, row.tables, row.entries) == ("big5", 1, _cpython_big5_pairs())
    assert row.python_tables > row.entries  # the table objects take more than a byte an entry
    assert bench.table_memory(["utf-8"]) == []
    mem = encspec.load("big5", backend="python").memory()
    assert (mem["tables"], mem["entries"]) == (1, row.entries)


def test_native_names_the_twin_a_module_decodes_with():
    from encspec.emit.native.build import NativeBuildError
    assert encspec.load("utf-8", backend="python").native() is None
    try:
        module = encspec.load("utf-8", backend="native")
    except NativeBuildError as e:
        pytest.skip(f"no native extension for utf-8 (a C compiler builds it): {e}")
    twin = module.native()
    assert twin is not None and twin.SPEC_SHA256 == module.SPEC_SHA256


def test_small_calls_time_each_size_both_ways_on_every_corpus(report):
    """The small-call rows: 8-, 20- and 100-byte decode and encode per corpus, each with a
    CPython and a native figure and a ratio that is a number (no speed asserted)."""
    rows = [r for r in report["rows"] if r["op"] == "small"]
    got = {(r["corpus"], r["errors"]) for r in rows}
    assert got == {(k, f"{op} {n} B") for k in bench.CORPORA for op in ("decode", "encode") for n in bench.SMALL}
    for r in rows:
        assert 0 < r["bytes"] <= int(r["errors"].split()[1]), r
        assert r["mb_per_s"]["cpython"] > 0 and r["mb_per_s"]["native"] > 0, r
        assert isinstance(r["ratio_to_cpython"]["native"], float) and r["ratio_to_cpython"]["native"] > 0


@pytest.mark.parametrize("spec,kind", [("utf-16", "emoji"), ("cp1251", "cjk"), ("big5", "cjk")])
def test_small_text_is_the_longest_prefix_within_the_bytes(spec, kind):
    module = encspec.load(spec)
    codec = bench.table_codec(module)
    text = bench.table_corpus(kind, 2000, module, codec) if codec else bench.corpus(kind, 2000)
    for n in bench.SMALL:
        got = bench.small_text(module, text, n)
        assert text.startswith(got) and 0 < len(module.encode(got)) <= n
        assert len(got) == len(text) or len(module.encode(text[:len(got) + 1])) > n


def test_the_catalogue_is_every_builtin_with_a_cpython_codec():
    import codecs
    found = dict(bench.catalogue())
    for name in ("utf-8", "utf-16le", "cp1251", "koi8_r", "iso8859_7", "mac_roman", "big5", "cp932", "cp949",
                 "cp950", "euc-jp", "big5hkscs", "euc_jis_2004", "shift_jisx0213", "whatwg-windows-1252"):
        assert name in found, name
    for name in ("corrected-utf-8", "leb128", "utf-1", "whatwg-replacement"):
        assert name not in found, name
    for codec in found.values():
        codecs.lookup(codec)  # CPython knows every baseline
    assert found["whatwg-windows-1251"] == "cp1251" and found["euc-kr"] == "euc_kr"


@pytest.mark.parametrize("spec,script", [("koi8_r", "CYRILLIC"), ("iso8859_7", "GREEK"), ("cp874", "THAI"),
                                         ("cp1252", "LATIN")])
def test_a_code_pages_own_corpus_is_in_its_script(spec, script):
    """A single-byte spec's "cjk" corpus is text of its own letters, which it and
    CPython's codec both write in one byte each."""
    import unicodedata
    module = encspec.load(spec)
    codec = bench.table_codec(module)
    text = bench.table_corpus("cjk", 4000, module, codec)
    letters = [ch for ch in text if ord(ch) > 0x7F]
    assert len(letters) > len(text) // 10
    assert all(unicodedata.name(ch).startswith(script) for ch in letters)
    assert module.encode(text) == text.encode(codec) and len(module.encode(text)) == len(text)


def test_catalogue_runs_cpython_and_native_only_and_prints_the_summary(capsys):
    rc, out, err = run(capsys, "bench", "--catalogue", "--spec", "koi8_r", "--spec", "utf-16le",
                       "--size", "4KiB", "--repeat", "1")
    assert rc in (0, None), err
    assert "NATIVE / CPYTHON" in out and all(title not in out for title in TITLES.values())
    head = out.split("NATIVE / CPYTHON", 1)[1].splitlines()[1]
    for op in ("decode", "incremental", "replace", "validate", "encode", "small"):
        assert f"{op} cjk" in head, op
    assert "transcode" not in head
    for spec in ("koi8_r", "utf-16le"):
        line = next(line for line in out.splitlines() if line.split()[:1] == [spec])
        assert len(re.findall(r"\d+\.\d\dx", line)) == 6 * len(bench.CORPORA), line


def test_catalogue_rows_have_only_cpython_and_native_figures():
    rows = bench.run(["cp1251"], 4096, 1, False, ("decode", "replace", "validate", "small"), lean=True)
    assert {r.errors for r in rows if r.op == "replace"} == {"replace 1%"}
    for r in rows:
        assert set(r.seconds) == {"cpython", "native"}, (r.op, r.seconds)
        assert all(r.na[c] == "not in --catalogue" for c in bench.SECTIONS[r.op] if c not in bench.LEAN)
