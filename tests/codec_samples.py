"""Shared inputs for the Python-backend tests: the specs that have an oracle, and
hypothesis strategies for bytes and code points weighted toward each encoding's
interesting values.

Nothing here computes an expected value from the code under test: the byte
"pieces" (whole valid encodings of boundary code points, signatures, special
sequences) come from the hand-written oracles in ``tests/oracles`` and the
boundary code points from the seed documents' tables.
"""
from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path

from hypothesis import strategies as st

SPECS = ["utf-8", "utf-8-bom", "corrected-utf-8", "wtf-8", "cesu-8", "mutf-8",
         "utf-8-rfc2279", "utf-inf-8", "utf-1", "fss-utf-1992"]
# (utf-8-optu8-strict, whose codec name escapes erroneous bytes, is tested in test_seed_codecs.py)

# Every decoding test runs on both backends: the generated module alone, and the
# module with its compiled extension (which must be there: tests/test_native.py).
BACKENDS = ["python", "native"]

# Signatures as the seeds define them (utf-8-encyclopedia-article.txt "Byte order mark",
# corrected-utf-8.txt "magic number").
BOM = b"\xEF\xBB\xBF"
MAGIC = bytes.fromhex("EF B7 9D ED B2 AE 00 0A")
SIGNATURES = {"utf-8-bom": BOM, "corrected-utf-8": MAGIC}


@cache
def oracle(name: str):
    """The hand-written oracle module for a spec name (tests/oracles/<name>.py)."""
    return importlib.import_module("oracles." + name.replace("-", "_"))


# ------------------------------------------------------------------ bytes
# Lead bytes, continuation-byte edges and the bytes that begin or end a row in some
# encoding of the family (Unicode Table 3-7, the seeds' tables).
COMMON_BYTES = [0x00, 0x0A, 0x20, 0x21, 0x41, 0x7E, 0x7F, 0x80, 0x81, 0x8F, 0x90, 0x9F,
                0xA0, 0xAF, 0xB0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED,
                0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF7, 0xF8, 0xFB, 0xFC, 0xFD,
                0xFE, 0xFF]
EXTRA_BYTES = {
    "utf-8-bom": [0xBB],
    "corrected-utf-8": [0x9D, 0xB2, 0xAE, 0xBC, 0xBD, 0xBE],
    "wtf-8": [0xA0, 0xAF, 0xB0],
    "cesu-8": [0xA0, 0xAF, 0xB0],
    "mutf-8": [0x01],
    "utf-8-rfc2279": [0x84, 0x83, 0x87, 0x88, 0xF9],
    "utf-inf-8": [0xB4, 0xA1, 0xA2, 0xA8, 0x83, 0x84, 0x88, 0x87],
    "utf-1": [0xA1, 0xF5, 0xF6, 0xFB, 0x22, 0x7D, 0xA2],
    "fss-utf-1992": [0x88, 0x84, 0xC1, 0xE1, 0xF1, 0xF7],
}

# Boundary code points: row edges of each seed table, the surrogates, U+10FFFF.
COMMON_CPS = [0x0, 0x1, 0xA, 0x7F, 0x80, 0x9F, 0xA0, 0xFF, 0x100, 0x7FF, 0x800, 0xFFF,
              0x1000, 0xCFFF, 0xD000, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000,
              0xFEFF, 0xFFFD, 0xFFFF, 0x10000, 0x3FFFF, 0x40000, 0xFFFFF, 0x100000,
              0x10FFFF, 0x110000, 0x1FFFFF, 0x200000, 0x3FFFFFF, 0x4000000, 0x3FFFFFFF,
              0x40000000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF]
EXTRA_CPS = {
    # corrected-utf-8.txt, "Putting it all together"; the magic number's code points
    "corrected-utf-8": [0x89F, 0x8A0, 0x1109F, 0x110A0, 0x21109F, 0x2110A0, 0x421109F,
                        0x42110A0, 0x8421109F, 0x842110A0, 0x10E7D, 0xED4E],
    # encyclopedia article, History, table "UTF-1"
    "utf-1": [0x4015, 0x4016, 0x38E2D, 0x38E2E],
    # encyclopedia article, History, table "FSS-UTF proposal (1992)"
    "fss-utf-1992": [0x207F, 0x2080, 0x8207F, 0x82080, 0x208207F, 0x2082080],
    # utf-inf-8.txt 3.3, 3.4, 3.5 (NUD = number of hex digits)
    "utf-inf-8": [2 ** 36 - 1, 2 ** 36, 2 ** 71 - 1, 2 ** 71]
                 + [16 ** k for k in range(17, 45)] + [16 ** k - 1 for k in range(18, 45)]
                 + [16 ** 100, 10 ** 120 - 1, 10 ** 120],
}
TOP = {"utf-inf-8": 10 ** 120}


def boundary_cps(name: str) -> list[int]:
    base = COMMON_CPS + EXTRA_CPS.get(name, [])
    return sorted({c + d for c in base for d in (-1, 0, 1) if c + d >= 0})


def encodable(name: str, cp: int) -> bool:
    return cps_encodable(name, [cp])


def cps_encodable(name: str, cps: list[int]) -> bool:
    """Whether the oracle encodes *cps* (a surrogate pair of code points: WTF-8 joins
    it, WTF-16 and Modified UTF-8 refuse it)."""
    try:
        oracle(name).encode(cps)
    except ValueError:
        return False
    return True


@cache
def pieces(name: str) -> tuple[bytes, ...]:
    """Whole valid encodings of boundary code points (from the oracle), the signature
    and the encoding's special sequences."""
    o = oracle(name)
    out = {o.encode([cp]) for cp in boundary_cps(name) if encodable(name, cp)}
    if name in SIGNATURES:
        out.add(SIGNATURES[name])
    if name in ("wtf-8", "cesu-8", "mutf-8"):
        # surrogate pair byte sequences (wtf-8.txt section 3.3 Table 1)
        out |= {bytes.fromhex("ED A0 80 ED B0 80"), bytes.fromhex("ED AF BF ED BF BF"),
                bytes.fromhex("ED A0 80"), bytes.fromhex("ED B0 80")}
    if name == "mutf-8":
        out.add(b"\xC0\x80")
    if name == "corrected-utf-8":
        out |= {b"\xFE", b"\xFF", b"\xFE\x80\xBF", b"\xFF\xBF\xBF\xBF"}
    if name == "utf-inf-8":
        out |= {b"\xFF\xB4", b"\xFF\xB4\xA1", b"\xFF\xB4\xB4\xA1\xA0"}
    return tuple(sorted(out, key=lambda b: (len(b), b)))


def byte_strings(name: str, max_pieces: int = 10):
    """Bytes built from interesting bytes, random bytes, whole valid encodings of
    boundary code points, their prefixes and one-byte mutations of them."""
    alphabet = COMMON_BYTES + EXTRA_BYTES.get(name, [])
    ps = pieces(name)
    one = lambda b: bytes([b])  # noqa: E731
    piece = st.sampled_from(ps)
    prefix = piece.flatmap(lambda p: st.integers(1, len(p)).map(lambda k: p[:k]))
    mutated = piece.flatmap(lambda p: st.tuples(st.integers(0, len(p) - 1), st.integers(0, 255)).map(
        lambda kb: p[:kb[0]] + bytes([kb[1]]) + p[kb[0] + 1:]))
    part = st.one_of(st.sampled_from(alphabet).map(one), st.integers(0, 255).map(one),
                     piece, prefix, mutated)
    return st.lists(part, max_size=max_pieces).map(b"".join)


def code_point_lists(name: str, max_size: int = 6):
    """Lists of code points: boundaries (and neighbours), surrogates, anything up to
    the encoding's top (10**120 for utf-inf-8), adjacent surrogate pairs, -1."""
    top = TOP.get(name, 2 ** 32)
    single = st.one_of(
        st.sampled_from(boundary_cps(name)),
        st.integers(0, 0x10FFFF),
        st.integers(0xD800, 0xDFFF),
        st.integers(0, top),
        st.just(-1),
    ).map(lambda c: [c])
    pair = st.tuples(st.integers(0xD800, 0xDBFF), st.integers(0xDC00, 0xDFFF)).map(list)
    return st.lists(st.one_of(single, single, single, pair), max_size=max_size).map(
        lambda groups: [c for g in groups for c in g])


SURROGATE_TEXT_CHARS = st.one_of(
    st.characters(exclude_categories=()),            # anything, surrogates included
    st.integers(0xD800, 0xDFFF).map(chr),
    st.integers(0xDC80, 0xDCFF).map(chr),             # what surrogateescape produces
    st.sampled_from([chr(c) for c in COMMON_CPS if c <= 0x10FFFF]),
)
texts_with_surrogates = st.lists(SURROGATE_TEXT_CHARS, max_size=12).map("".join)


# ------------------------------------------------------------------ backends
def has_extension(name: str) -> bool:
    """Whether the built-in spec has a C extension of its own (generated/native/MODULE.c);
    a single-byte spec has none: CPython's charmap codec is its native backend."""
    from encspec.spec import registry
    return (Path(__file__).resolve().parents[1] / "generated" / "native" / f"{registry.module_name(name)}.c").exists()


def native_extension_missing(name: str):
    """None when the built-in spec's compiled extension is importable (as
    tests/test_native.py finds it: ``encspec.generated._native_<module>``), else why not."""
    if not has_extension(name):
        return None  # no extension to build: its native backend is CPython's charmap codec
    module = "encspec.generated._native_" + name.replace("-", "_").replace(".", "_")
    try:
        importlib.import_module(module)
    except ImportError as e:
        return f"{module} is not built ({e}): run `pip install -e .` with a C compiler"
    return None


def load_backend(name: str, backend: str):
    """``encspec.load(name, backend=backend)``; for "native" a missing extension skips
    the test with the reason, or fails it when ENCSPEC_REQUIRE_TOOLS is set (not "0")."""
    import encspec
    import tools
    if backend == "native":
        why = native_extension_missing(name)
        if why is not None:
            tools.missing(why)
    return encspec.load(name, backend=backend)


def joined_pairs(cps: list[int]) -> list[int]:
    """*cps* with each lead surrogate followed by a trail one made one supplementary
    code point, left to right (wtf-8.txt 6.1 step 2.1: what WTF-8's encoders write)."""
    out: list[int] = []
    for c in cps:
        if out and 0xD800 <= out[-1] <= 0xDBFF and 0xDC00 <= c <= 0xDFFF:
            out[-1] = 0x10000 + ((out[-1] - 0xD800) << 10) + (c - 0xDC00)
        else:
            out.append(c)
    return out


def unsplit_pairs(pieces):
    """*pieces* with each piece that starts with a trail surrogate right after a lead
    surrogate (empty pieces between them or not) joined to the piece that lead ends."""
    out = [pieces[0]]
    last = pieces[0][-1:]
    for piece in pieces[1:]:
        if last and "\ud800" <= last <= "\udbff" and piece[:1] and "\udc00" <= piece[0] <= "\udfff":
            k = max(i for i, p in enumerate(out) if p)
            out[k] += piece
        else:
            out.append(piece)
        last = piece[-1:] or last
    return out
