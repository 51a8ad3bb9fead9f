"""Issue 15, items 1 and 2: what corrected-utf-8.txt says about reserved runs and
about the magic number inside a document, followed to the letter.

1. "Corrected UTF-8 decoders MUST treat sequences beginning with FE or FF as
   reserved for future use and as extending until the next recognized lead byte,
   rather than as invalid."  A reserved run keeps a document valid (is_valid,
   first_error, Report.valid, ``encspec validate``); a strict decode, which has no
   text for it, still raises ``reserved sequence``; the stricter check is
   ``allow_reserved=False`` / ``--reject-reserved``.
2. "U+0000 MUST NOT appear in a Corrected UTF-8 document except as part of the
   magic number defined above."  A complete magic number anywhere is exempt from
   lint's U+0000 rule; away from the start lint warns, since the magic number
   "SHOULD be present at the beginning of any file".

Every expected value below is written from the document: the magic number is
"EF B7 9D ED B2 AE 00 0A"; FE starts a reserved run that extends over the 80s
(continuation bytes, which are not lead bytes) up to the next lead byte.
"""
from __future__ import annotations

import codecs
import io
import json

import pytest

from codec_samples import BACKENDS, load_backend
from conftest import cut_at
from conftest import run_cli as run
from encspec.io import parallel, stream

# corrected-utf-8.txt: 'The eight-byte sequence EF B7 9D ED B2 AE 00 0A is defined as the magic number'
MAGIC = bytes.fromhex("EF B7 9D ED B2 AE 00 0A")
# "ab", then FE 80 80 (one reserved run: 80 is not a lead byte), then "c"
RESERVED_DOC = b"ab\xfe\x80\x80c"


# ------------------------------------------------------------ 1. reserved runs
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_reserved_run_is_not_invalid(backend):
    """'... as reserved for future use ... rather than as invalid': valid by default,
    reported as reserved, rejected only when asked."""
    m = load_backend("corrected-utf-8", backend)
    assert list(m.tokens(RESERVED_DOC)) == [("char", 0, 1, 0x61), ("char", 1, 2, 0x62),
                                            ("reserved", 2, 5, None), ("char", 5, 6, 0x63)]
    assert m.is_valid(RESERVED_DOC) is True
    assert m.first_error(RESERVED_DOC) is None
    assert m.is_valid(RESERVED_DOC, allow_reserved=False) is False
    assert m.first_error(RESERVED_DOC, allow_reserved=False) == (2, 5, "reserved sequence")
    # FF too, and a run at the very end (nothing after it to end it)
    assert m.is_valid(b"x\xff") and m.is_valid(b"\xfe\xfe\x80") and not m.is_valid(b"\xff", allow_reserved=False)


@pytest.mark.parametrize("backend", BACKENDS)
def test_ill_formed_sequences_stay_invalid(backend):
    """Only FE/FF runs are reserved: a lone continuation byte or a truncated sequence is
    still an error, before or after a reserved run."""
    m = load_backend("corrected-utf-8", backend)
    assert m.is_valid(b"a\x80") is False
    # a truncated last sequence: CPython's reason, as for b"\xc2".decode("utf-8")
    assert m.first_error(b"\xfe\x80A\xc0") == (3, 4, "unexpected end of data")
    assert m.is_valid(b"\xfe\x80A\xc0", allow_reserved=False) is False


@pytest.mark.parametrize("backend", BACKENDS)
def test_strict_decode_still_raises_for_a_reserved_run(backend):
    """A decoder has no text for a sequence 'reserved for future use': strict decoding
    raises with the reason 'reserved sequence'; any other handler is asked."""
    m = load_backend("corrected-utf-8", backend)
    with pytest.raises(UnicodeDecodeError) as e:
        m.decode(RESERVED_DOC)
    assert (e.value.start, e.value.end, e.value.reason) == (2, 5, "reserved sequence")
    assert m.decode(RESERVED_DOC, "replace") == "ab\ufffdc"       # one U+FFFD per run
    seen = []

    def handler(exc):
        seen.append((exc.start, exc.end, exc.reason))
        return ("<reserved>", exc.end)
    codecs.register_error("test_seed_reserved_lint.mark", handler)
    assert m.decode(RESERVED_DOC, "test_seed_reserved_lint.mark") == "ab<reserved>c"
    assert seen == [(2, 5, "reserved sequence")]


@pytest.mark.parametrize("backend", BACKENDS)
def test_stream_report_is_valid_with_reserved_runs(backend):
    """Report.valid follows is_valid: reserved runs are counted and shown, not invalid."""
    m = load_backend("corrected-utf-8", backend)
    rep = stream.validate_stream(m, stream.Input(io.BytesIO(RESERVED_DOC), "doc", len(RESERVED_DOC)))
    assert (rep.errors, rep.reserved) == (0, 1)
    assert [(p.kind, p.start, p.end, p.reason) for p in rep.problems] == [("reserved", 2, 5, "reserved sequence")]
    assert rep.valid() is True and rep.valid(allow_reserved=False) is False
    # stopped at the limit after a reserved run: what was not read decides, so not known
    rep = stream.validate_stream(m, stream.Input(io.BytesIO(b"\xfe\x80 \x80"), "doc", 4), limit=1)
    assert rep.truncated and rep.valid() is None and rep.valid(allow_reserved=False) is False


def test_parallel_validation_keeps_reserved_runs_valid(tmp_path):
    """The split-file path decides validity the same way, with a cut inside a long run."""
    f = tmp_path / "long.txt"
    f.write_bytes(b"a\n" + b"\xfe" + b"\x80" * 5000 + b"b\n")
    rep = parallel.validate_chunked("corrected-utf-8", str(f), [1000, 3000], cut_at=cut_at("corrected-utf-8"))
    assert (rep.errors, rep.reserved) == (0, 1) and rep.valid() is True
    assert rep.valid(allow_reserved=False) is False


def test_validate_command_reports_reserved_runs_as_valid(tmp_path, capsys):
    """``encspec validate``: reserved runs are listed, the file is valid (exit 0);
    --reject-reserved makes them invalid (exit 1); --allow-reserved, the old flag, is
    still accepted and means the default."""
    f = tmp_path / "doc.txt"
    f.write_bytes(RESERVED_DOC)
    lines = [f"{f}:1:3: reserved: FE 80 80 (byte 2)", f"{f}: valid (with 1 reserved run)"]
    rc, out, err = run(capsys, "validate", "corrected-utf-8", f, "--no-progress")
    assert (rc, out.splitlines(), err) == (0, lines, "")
    rc, out, err = run(capsys, "validate", "corrected-utf-8", f, "--no-progress", "--allow-reserved")
    assert (rc, out.splitlines(), err) == (0, lines, "")
    rc, out, err = run(capsys, "validate", "corrected-utf-8", f, "--no-progress", "--reject-reserved")
    assert (rc, err) == (1, "")
    assert out.splitlines() == [lines[0], f"{f}: invalid: 1 reserved run (--reject-reserved)"]
    rc, out, _ = run(capsys, "validate", "corrected-utf-8", f, "--no-progress", "--json")
    got = json.loads(out)
    assert rc == 0 and (got["valid"], got["errors"], got["reserved"]) == (True, 0, 1)
    rc, out, _ = run(capsys, "validate", "corrected-utf-8", f, "--no-progress", "--json", "--reject-reserved")
    assert rc == 1 and json.loads(out)["valid"] is False


def test_validate_command_errors_and_reserved_runs(tmp_path, capsys):
    """An error still makes the file invalid; --max-errors that stops on reserved runs
    alone cannot say the file is valid."""
    f = tmp_path / "bad.txt"
    f.write_bytes(b"\xfe\x80 \x80\n")
    rc, out, _ = run(capsys, "validate", "corrected-utf-8", f, "--no-progress")
    assert rc == 1 and out.splitlines()[-1] == f"{f}: invalid: 1 error, 1 reserved run"
    rc, out, _ = run(capsys, "validate", "corrected-utf-8", f, "--no-progress", "--max-errors", "1")
    assert rc == 1 and out.splitlines()[-1] == (
        f"{f}: not known: 1 reserved run (stopped at --max-errors 1 before the end: the rest was not read)")


def test_validate_command_bad_flag_is_one_line(tmp_path, capsys):
    f = tmp_path / "doc.txt"
    f.write_bytes(RESERVED_DOC)
    rc, out, err = run(capsys, "validate", "corrected-utf-8", f, "--reject-reserve-runs")
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err


# --------------------------------------------------- 2. magic number in the middle
LATER_MAGIC = b"ab\n" + MAGIC + b"c\n"   # the magic number at byte 3: line 2, column 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_lint_exempts_a_magic_number_after_the_start(backend):
    """'U+0000 MUST NOT appear in a Corrected UTF-8 document except as part of the magic
    number': its U+0000 is no error anywhere; away from the start it is a warning
    ('It SHOULD be present at the beginning of any file')."""
    m = load_backend("corrected-utf-8", backend)
    warn = "the magic number is not at the start of the document"
    assert m.lint(MAGIC + LATER_MAGIC) == [("warning", 11, 2, 1, warn)]
    # unsigned: the profile's missing-signature warning too, and still no error
    assert m.lint(LATER_MAGIC) == [("warning", 0, 1, 1, "the file does not begin with the magic number"),
                                   ("warning", 3, 2, 1, warn)]
    # two of them; the magic number's own U+000A ends line 2, so "c" is on line 3
    assert m.lint(MAGIC + MAGIC + MAGIC + b"c\n") == [("warning", 8, 1, 1, warn), ("warning", 16, 2, 1, warn)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_lint_u0000_outside_a_complete_magic_number_is_still_an_error(backend):
    """Only a complete magic number is exempt: a U+0000 right after one, or after its
    first bytes alone (EF B7 9D = U+10E7D, then U+0000), is an error."""
    m = load_backend("corrected-utf-8", backend)
    err = "U+0000 must not appear outside the magic number"
    warn = "the magic number is not at the start of the document"
    assert m.lint(MAGIC + b"x\n" + MAGIC + b"\x00\n") == [("warning", 10, 2, 1, warn), ("error", 18, 3, 1, err)]
    assert m.lint(MAGIC + MAGIC[:3] + b"\x00\n") == [("error", 11, 1, 2, err)]


def test_lint_command_shows_the_warning_and_exits_0(tmp_path, capsys):
    """``encspec lint``: the magic number in the middle is a warning (exit 0); a stray
    U+0000 is an error (exit 1)."""
    f = tmp_path / "doc.cutf8"
    f.write_bytes(MAGIC + LATER_MAGIC)
    rc, out, err = run(capsys, "lint", "corrected-utf-8", f)
    assert (rc, out, err) == (0, f"{f}:2:1: warning: the magic number is not at the start of the document"
                                 " (byte 11)\n", "")
    f.write_bytes(MAGIC + LATER_MAGIC + b"\x00\n")
    rc, out, err = run(capsys, "lint", "corrected-utf-8", f)
    assert rc == 1 and out.splitlines()[-1] == (
        f"{f}:4:1: error: U+0000 must not appear outside the magic number (byte 21)")
