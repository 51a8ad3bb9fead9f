"""``bytes through FILE`` (issue 29, item 2): a spec's forms describe intermediate bytes
and the file maps each one-to-one to a real byte; a file that is not a permutation of
00..FF is an error located in it (file:line:col, the line, a caret), a statement that
cannot go with the rest of the spec an error at that statement.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import assert_located_in_file
from encspec.spec.diagnostics import SpecError
from encspec.spec.parse import parse_file

SPEC = 'encoding toy\ncode-space U+0000..U+00FF\nbytes through "perm.txt"\nform 1: 00..FF\n{extra}'
# the identity with 00 and 01 swapped, one entry a line
SWAPPED = "".join(f"0x{b:02X}\t0x{(b ^ 1) if b < 2 else b:02X}\n" for b in range(256))


def write(folder: Path, perm: str, extra: str = "") -> Path:
    (folder / "perm.txt").write_text(perm, "utf-8")
    spec = folder / "toy.encspec"
    spec.write_text(SPEC.format(extra=extra), "utf-8")
    return spec


def spec_error(folder: Path, perm: str, extra: str = "") -> SpecError:
    with pytest.raises(SpecError) as got:
        parse_file(write(folder, perm, extra))
    return got.value


def test_a_permutation_file_gives_the_real_byte_of_each_intermediate_byte(tmp_path):
    spec = parse_file(write(tmp_path, "# a comment\n\n" + SWAPPED))
    assert spec.permutation == bytes([1, 0]) + bytes(range(2, 256))


def test_a_spec_without_the_statement_has_no_permutation(tmp_path):
    (tmp_path / "plain.encspec").write_text("encoding toy\ncode-space U+0000..U+007F\nform 1: 0xxxxxxx\n")
    assert parse_file(tmp_path / "plain.encspec").permutation is None


MISTAKES = [
    # (file, line, column, message)
    (SWAPPED.replace("0x05\t0x05", "0x05\t0x00"), 6, 6,
     "real byte 00 is given twice (first on line 2): not a permutation"),
    (SWAPPED + "0x05\t0x05\n", 257, 1, "intermediate byte 05 is given twice (first on line 6)"),
    ("0x00\t0x1\n", 1, 6, "byte '0x1' is not 0x and two ASCII hex digits"),
    ("0x100\t0x01\n", 1, 1, "byte '0x100' is not 0x and two ASCII hex digits"),
    ("0x\uff10\uff10\t0x01\n", 1, 1, "byte '0x\uff10\uff10' is not 0x and two ASCII hex digits"),
    ("0x00 0x01\n", 1, 1, "expected an intermediate byte, a TAB and a real byte (0xHH each)"),
]


@pytest.mark.parametrize("perm, line, column, message", MISTAKES)
def test_a_mistake_in_a_permutation_file_is_located_in_it(tmp_path, perm, line, column, message):
    assert_located_in_file(spec_error(tmp_path, perm), tmp_path / "perm.txt", perm, line, column, message)


def test_missing_bytes_are_an_error_at_the_statement(tmp_path):
    e = spec_error(tmp_path, "".join(SWAPPED.splitlines(keepends=True)[:250]))
    assert (e.path, e.loc.line, e.loc.column) == (str(tmp_path / "toy.encspec"), 3, 15)
    assert e.message == ("table file 'perm.txt' is not a permutation of 00..FF: no entry for 6 intermediate "
                         "byte(s): FA FB FC FD FE FF")
    assert e.render().split("\n")[2] == " " * (4 + 14) + "^"


@pytest.mark.parametrize("extra, line, message", [
    ("signature FE FF\n", 5, "a 'signature' cannot go with 'bytes through' (not supported yet)"),
    ('bytes through "perm.txt"\n', 5, "'bytes-through' is given twice (first at line 3)"),
])
def test_what_cannot_go_with_a_permutation_is_an_error_at_its_statement(tmp_path, extra, line, message):
    e = spec_error(tmp_path, SWAPPED, extra)
    assert (e.path, e.loc.line, e.message) == (str(tmp_path / "toy.encspec"), line, message)


def test_a_permutation_needs_a_spec_of_bytes(tmp_path):
    e = spec_error(tmp_path, SWAPPED, "code-unit 16 big-endian\n")
    assert (e.loc.line, e.message) == (3, "'bytes through' needs a spec of bytes (no 'code-unit' wider than 8)")


def test_a_missing_permutation_file_is_an_error_at_the_statement(tmp_path):
    spec = tmp_path / "toy.encspec"
    spec.write_text(SPEC.format(extra=""), "utf-8")
    with pytest.raises(SpecError) as got:
        parse_file(spec)
    assert (got.value.loc.line, got.value.loc.column) == (3, 15)
    assert got.value.message.startswith("no such table file 'perm.txt'")


# 00 and FE swapped: real 00 is the reserved lead FE the forms name, real FE the character U+0000
RESERVED = "encoding toy\ncode-space U+0000..U+007F\nbytes through \"perm.txt\"\nreserved FE\nform 1: 00..7F\n"
SWAP_00_FE = "".join(f"0x{b:02X}\t0x{ {0: 0xFE, 0xFE: 0}.get(b, b):02X}\n" for b in range(256))


def reserved_toy(folder: Path):
    import encspec
    (folder / "perm.txt").write_text(SWAP_00_FE, "utf-8")
    (folder / "toy.encspec").write_text(RESERVED, "utf-8")
    return encspec.load(str(folder / "toy.encspec"))


def _fed(module, data: bytes, errors: str = "replace", size: int = 256) -> str:
    dec = module.IncrementalDecoder(errors)
    return "".join(dec.decode(data[k:k + size]) for k in range(0, len(data), size)) + dec.decode(b"", True)


def test_a_long_token_fed_in_pieces_reads_through_the_permutation(tmp_path):
    module = reserved_toy(tmp_path)
    seen = []

    def record(exc):
        seen.append((exc.object[exc.start:exc.end], exc.reason))  # offsets: in the buffer decoded
        return "?", exc.end

    import codecs
    codecs.register_error("test-permutation-record", record)
    data = b"A\xfe" + b"\x00" + b"\x80" * 10_000 + b"B"
    assert _fed(module, data, "test-permutation-record") == "A\x00?B"
    assert seen == [(b"\x00" + b"\x80" * 10_000, "reserved sequence")]
    assert module.decode(data, "replace") == _fed(module, data)


def test_a_long_token_fed_in_pieces_costs_linear_time(tmp_path):
    from conftest import assert_linear
    module = reserved_toy(tmp_path)
    assert_linear("incremental decoding of one long reserved run through a permutation",
                  lambda data: _fed(module, data), b"\x00" + b"\x80" * (64 * 1024), b"\x00" + b"\x80" * (1 << 20))
