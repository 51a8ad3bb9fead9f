"""Writes the specs of CPython's ISO-2022 codecs: the built-ins iso2022_kr, iso2022_jp,
iso2022_jp_1, iso2022_jp_ext, iso2022_jp_2004 and iso2022_jp_3 (specs/NAME.encspec) and
iso2022_jp_2 (tests/data/modes/, too large for a built-in: docs/pages/decisions.md):
``python specs/tables/cpython/iso2022.py``.

CPython's decoder (Modules/cjkcodecs/_codecs_iso2022.c) keeps G0, G1, a shift flag and an
"ESC throughout" flag; each spec spells that state as a flat set of modes, one for each
combination the codec can reach, and every mode repeats the escape sequences with the
designations they make from it.  Written out by hand that is hundreds of near-identical
lines; this script is the one place they are decided, and tests/test_modes_cpython.py
checks that the files are what it writes.
"""
from __future__ import annotations

import sys
import textwrap
from dataclasses import dataclass, replace
from itertools import product
from pathlib import Path

TABLES = Path(__file__).resolve().parent
SPECS = TABLES.parents[1]
MODES = SPECS.parent / "tests" / "data" / "modes"
BUILTIN = ("iso2022_kr", "iso2022_jp", "iso2022_jp_1", "iso2022_jp_ext", "iso2022_jp_2004",
           "iso2022_jp_3")                      # iso2022_jp_2: test data

ESCEND = [0x40] + list(range(0x41, 0x5B))     # IS_ESCEND: A..Z or @
HEADERS = [0x24, 0x26, 0x28, 0x29, 0x2E]         # IS_ISO2022ESC: $ & ( ) .
MAX_ESCSEQLEN = 16
WORDS = {0x1B: "esc", 0x24: "d", 0x26: "amp", 0x28: "g0", 0x29: "g1", 0x2E: "g2", 0x40: "at"}   # a shift's name, byte by byte


@dataclass(frozen=True)
class Charset:
    """One of CPython's designations: its final byte (the ESCMARK), width and table."""

    name: str
    final: int
    dbcs: bool
    plane: int = 0      # the G it designates for the encoder (ISO-8859 ones: G2)


ASCII = Charset("ascii", 0x42, False)
ROMAN = Charset("roman", 0x4A, False)
KATAKANA = Charset("katakana", 0x49, False)
JIS0208 = Charset("jis0208", 0x42, True)
JIS0208_O = Charset("jis0208", 0x40, True)       # ESC $ @: the same decoder, so the same mode
JIS0212 = Charset("jis0212", 0x44, True)
KSX1001 = Charset("ksc", 0x43, True, 1)        # iso2022_kr's: in G1
KSX1001_G0 = Charset("ksc", 0x43, True)         # iso2022_jp_2's: in G0
GB2312 = Charset("gb2312", 0x41, True)
LATIN1 = Charset("latin1", 0x41, False, 2)      # ISO-8859-1's right half, by ESC N in G2
GREEK = Charset("greek", 0x46, False, 2)        # ISO-8859-7's right half, by ESC N in G2
JISX0213_2004_1 = Charset("jisx0213-2004-1", 0x51, True)   # JIS X 0213:2004 plane 1: ESC $ ( Q
JISX0213_2004_2 = Charset("jisx0213-2004-2", 0x50, True)   # plane 2: ESC $ ( P
JISX0213_2000_1 = Charset("jisx0213-2000-1", 0x4F, True)   # JIS X 0213:2000 plane 1: ESC $ ( O
JISX0213_2000_2 = Charset("jisx0213-2000-2", 0x50, True)


@dataclass(frozen=True)
class Codec:
    name: str
    title: str
    aliases: str
    designations: tuple[Charset, ...]           # the codec's list, in its order (the encoder's preference)
    shifts: bool                                # SO/SI and G1 (iso2022_kr); else NO_SHIFT
    jisx0208_ext: bool                          # USE_JISX0208_EXT: ESC & @ ESC $ B
    g2: bool = False                            # USE_G2: ESC . F designates G2, ESC N reads one byte in it
    skips: int = 2                              # "& @" skips spelled out per escape sequence (USE_JISX0208_EXT)


CODECS = (
    Codec("iso2022_kr", "ISO-2022-KR (CPython's iso2022_kr codec, RFC 1557)", "csiso2022kr, iso2022kr, iso-2022-kr",
          (KSX1001,), True, False),
    Codec("iso2022_jp", "ISO-2022-JP (CPython's iso2022_jp codec, RFC 1468)", "csiso2022jp, iso2022jp, iso-2022-jp",
          (JIS0208, ROMAN, JIS0208_O), False, True),
    Codec("iso2022_jp_1", "ISO-2022-JP-1 (CPython's iso2022_jp_1 codec, RFC 2237)", "iso2022jp-1, iso-2022-jp-1",
          (JIS0208, JIS0212, ROMAN, JIS0208_O), False, True),
    Codec("iso2022_jp_ext", "ISO-2022-JP-EXT (CPython's iso2022_jp_ext codec)", "iso2022jp-ext, iso-2022-jp-ext",
          (JIS0208, JIS0212, ROMAN, KATAKANA, JIS0208_O), False, True),
    Codec("iso2022_jp_2", "ISO-2022-JP-2 (CPython's iso2022_jp_2 codec, RFC 1554)", "iso2022jp-2, iso-2022-jp-2",
          (JIS0208, JIS0212, KSX1001_G0, GB2312, ROMAN, JIS0208_O, LATIN1, GREEK), False, True, True, 1),
    # REGISTRY_JISX0213_*_1_PAIRONLY, JISX0208, JISX0213_*_1, JISX0213_*_2: plane 1's pairs
    # first (the longest match, here), then JIS X 0208, then the planes
    Codec("iso2022_jp_2004", "ISO-2022-JP-2004 (CPython's iso2022_jp_2004 codec, JIS X 0213:2004)",
          "iso2022jp-2004, iso-2022-jp-2004", (JISX0213_2004_1, JIS0208, JISX0213_2004_2), False, True),
    Codec("iso2022_jp_3", "ISO-2022-JP-3 (CPython's iso2022_jp_3 codec, JIS X 0213:2000)",
          "iso2022jp-3, iso-2022-jp-3", (JISX0213_2000_1, JIS0208, JISX0213_2000_2), False, True),
)

TABLE_FILES = {"jis0208": "euc_jp-jis0208.txt", "jis0212": "euc_jp-jis0212.txt", "ksc": "euc_kr-ksx1001.txt",
               "gb2312": "gb2312-double.txt", "jisx0213-2004-1": "euc_jis_2004-plane1.txt",
               "jisx0213-2004-2": "euc_jis_2004-plane2.txt", "jisx0213-2000-1": "euc_jisx0213-plane1.txt",
               "jisx0213-2000-2": "euc_jisx0213-plane2.txt"}


@dataclass(frozen=True)
class State:
    """CPython's decoder state: G0, G1, the shift flag, ESC throughout."""

    g0: str
    g1: str = "ascii"
    shifted: bool = False
    through: bool = False
    g2: str = "ascii"

    def name(self, codec: Codec) -> str:
        if not codec.shifts:
            return self.g0 + ("" if self.g2 == "ascii" else "-g2" + self.g2) + ("-esc" if self.through else "")
        return f"{self.g0}-{self.g1}" + ("-so" if self.shifted else "") + ("-esc" if self.through else "")

    @property
    def charset(self) -> str:
        return self.g1 if self.shifted else self.g0


def charsets(codec: Codec) -> list[str]:
    names = ["ascii"]
    for c in codec.designations:
        if c.name not in names:
            names.append(c.name)
        if _twin(c):            # ESC $ D: a twin of ESC $ ( D's mode, so that the encoder writes the latter
            names.append(c.name + "-3")
    return names


def _twin(c: Charset) -> bool:
    """A 94x94 set the encoder designates with ESC $ ( F, which ESC $ F designates too."""
    return c.dbcs and c.plane == 0 and c.name != "jis0208"


def g2_charsets(codec: Codec) -> list[str]:
    """What G2 can hold: ASCII, and each one-byte set ESC . F can designate."""
    if not codec.g2:
        return ["ascii"]
    return ["ascii"] + [c.name for c in codec.designations if not c.dbcs]


def states(codec: Codec) -> list[State]:
    sets = charsets(codec)
    if not codec.shifts:
        return [State(g0, through=t, g2=g2) for t in (False, True) for g2 in g2_charsets(codec) for g0 in sets]
    return [State(g0, g1, s, t) for t in (False, True) for g0 in sets for g1 in sets for s in (False, True)]


def designation(codec: Codec, esc: bytes) -> tuple[int, str] | None:
    """iso2022processesc on a complete escape sequence of 3 or 4 bytes (or ESC & @ ESC $ B):
    (G number, charset) or None (an error of the sequence's length)."""
    if len(esc) == 3:
        if esc[1] == 0x24:
            g, final, dbcs = 0, esc[2], True
        elif esc[1] in (0x28, 0x29):
            g, final, dbcs = (0 if esc[1] == 0x28 else 1), esc[2], False
        elif esc[1] == 0x2E and codec.g2:
            g, final, dbcs = 2, esc[2], False
        else:
            return None
    elif len(esc) == 4:
        if esc[1] != 0x24 or esc[2] not in (0x28, 0x29):
            return None
        g, final, dbcs = (0 if esc[2] == 0x28 else 1), esc[3], True
    else:
        return (0, "jis0208") if codec.jisx0208_ext and esc == b"\x1b&@\x1b$B" else None
    if not dbcs and final == ASCII.final:
        return g, "ascii"
    for c in codec.designations:
        if c.final == final and c.dbcs == dbcs:
            return g, c.name + ("-3" if _twin(c) and len(esc) == 3 else "")
    return None


def runs(values: list[int]) -> str:
    """Byte values as an alphabet's runs: 21..23, 25..7E."""
    out, values = [], sorted(values)
    k = 0
    while k < len(values):
        j = k
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        out.append(f"{values[k]:02X}" if j == k else f"{values[k]:02X}..{values[j]:02X}")
        k = j + 1
    return ", ".join(out)


# JIS X 0213 plane 2's rows; the EUC tables' code set 3 has JIS X 0212 in the others (the
# EUC decoders fall back to it), which CPython's ISO-2022 plane 2 does not read
PLANE2_ROWS = frozenset([1, 3, 4, 5, 8, 12, 13, 14, 15] + list(range(78, 95)))


def pointers(table: str) -> set[int]:
    lines = (TABLES / TABLE_FILES[table]).read_text(encoding="utf-8").splitlines()
    have = {int(line.split("\t")[0]) for line in lines if line and not line.startswith("#")}
    return {p for p in have if p // 94 + 1 in PLANE2_ROWS} if table.endswith("-2") else have


def table_options(table: str) -> list[str]:
    """A JIS X 0213 table's lines after its `table`: plane 2's JIS X 0212 rows (the EUC
    fallback, never written; for 2000, 7D 3B); plane 1's 22 32, which _codecs_jp.c's EUC decoder alone
    reads as U+FF5E (the ISO-2022 decoder gives the decoding map's U+007E)."""
    if table.endswith("-2"):
        rows = [r for r in range(1, 95) if r not in PLANE2_ROWS]
        return [f"      encode-skip {(lo - 1) * 94}..{hi * 94 - 1}" for lo, hi in _spans(rows)] + \
            (["      with 8674 = U+9B1C                 # 7D 3B: the EUC decoder's U+9B1D is 2004's",
              "      encode-skip 8674                   # CPython writes U+9B1D there, U+9B1C nowhere"]
             if "2000" in table else [])
    if table.startswith("jisx0213-"):
        return ["      with 111 = U+007E                  # 22 32"]
    return []


def leads(table: str) -> list[int]:
    return [b for b in range(0x21, 0x7F) if not (table == "ksc" and b == 0x24)]  # KS X 1001 row 4: jamo


def unmapped_patterns(table: str) -> list[str]:
    """The table's pointers without a code point, as rectangles of lead and trail runs: CPython
    makes each an error of both bytes (return dsg->width)."""
    have = pointers(table)
    rows: list[tuple[int, tuple[int, ...]]] = []
    for index, lead in enumerate(leads(table)):
        missing = tuple(t for t in range(0x21, 0x7F) if index * 94 + t - 0x21 not in have)
        rows.append((lead, missing))
    out: list[str] = []
    k = 0
    while k < len(rows):
        j = k
        while j + 1 < len(rows) and rows[j + 1][1] == rows[k][1] and rows[j + 1][0] == rows[j][0] + 1:
            j += 1
        if rows[k][1]:
            lo, hi = rows[k][0], rows[j][0]
            leads_run = f"{lo:02X}" if lo == hi else f"{lo:02X}..{hi:02X}"
            for trail in runs(list(rows[k][1])).split(", "):
                out.append(f"{leads_run} {trail}")
        k = j + 1
    return out


def mode_lines(codec: Codec, state: State, by_name: dict[State, str]) -> list[str]:
    me = by_name[state]
    out = [f"mode {me}"]
    if state.through:
        home = by_name[replace(state, through=False)]
        out += ["form t-low:  00..3F",
                f"form t-at:   40 = U+0040 -> {home}",
                f"form t-az:   41..5A at U+0041 -> {home}",
                "form t-high: 5B..FF at U+005B"]
        return out
    cs = state.charset
    controls = [b for b in range(0x20) if b != 0x1B and not (codec.shifts and b in (0x0A, 0x0E, 0x0F))]
    for lo, hi in ((a, b) for a, b in _spans(controls)):
        at = f" at U+{lo:04X}" if lo else ""
        out.append(f"form c{lo:02x}: {lo:02X}..{hi:02X}{at}" if lo != hi else f"form c{lo:02x}: {lo:02X} = U+{lo:04X}")
    if codec.shifts:
        plain = by_name[replace(state, shifted=False)]
        out.append(f"form lf: 0A = U+000A -> {plain}" if state.shifted else "form lf: 0A = U+000A")
        if state.shifted:       # CPython's encoder writes every code point below 80 after SI
            out.append("unencodable U+0000..U+001F                      # written after SI")
    if cs == "ascii":
        out.append("form ascii: 20..7F at U+0020")
    elif cs == "roman":
        out += ["form roman: 20..5B at U+0020", "form yen: 5C = U+00A5", "form roman-2: 5D..7D at U+005D",
                "form overline: 7E = U+203E", "form roman-del: 7F = U+007F"]
    elif cs == "katakana":
        out += ["form katakana: 21..5F at U+FF61",
                'ill-formed pattern no-katakana: 20 "illegal multibyte sequence"',
                'ill-formed pattern no-katakana-2: 60..7F "illegal multibyte sequence"']
    elif cs in ("latin1", "greek"):
        pass                    # CPython's dummy decoder: every byte 20..7F is one error
    else:
        cs = cs.removesuffix("-3")
        if cs == "ksc":
            out += ["form jamo: 24 21..7E at U+3131", "form ksc: kslead 21..7E table ksc"]
        else:
            out.append(f"form {cs}: 21..7E 21..7E table {cs}")
        if state.charset == "jisx0213-2000-2":   # CPython's 2000 encoder: U+9B1D as 7D 3B, read back as U+9B1C
            out.append("encode U+9B1D as 7D 3B")
        out += [f'ill-formed pattern {cs}-lead: lead-bad 00..FF "illegal multibyte sequence"',
                f'ill-formed pattern {cs}-trail: 21..7E trail-bad "illegal multibyte sequence"']
        out += [f'ill-formed pattern {cs}-unmapped-{k}: {p} "illegal multibyte sequence"'
                for k, p in enumerate(unmapped_patterns(cs))]
    # latin1, greek in G0 (ESC ( A, ESC ( F): CPython's dummy decoder makes each byte an error
    if codec.g2:
        out += single_shift_lines(state.g2)
    through = by_name[replace(state, through=True)]
    out += [f"form esc: 1B = U+001B -> {through}"]
    out += escape_lines(codec, state, by_name)
    if codec.shifts:            # after the escape sequences: the encoder designates G1 before SO
        out += [f"shift so: 0E -> {by_name[replace(state, shifted=True)]}",
                f"shift si: 0F -> {by_name[replace(state, shifted=False)]}"]
    # where CPython's encoder writes ESC (SO, SI) as itself: G0 ASCII, not shifted (for kr
    # both G1 designations: the encoder keeps G1 once designated)
    first = every_first(codec)
    if state == first or (codec.shifts and replace(state, g1=first.g1) == first):
        out += ENCODE_ENTRIES[codec.shifts]
    return out


def every_first(codec: Codec) -> State:
    return states(codec)[0]


ENCODE_ENTRIES = {
    False: ["encode U+001B as 1B                             # CPython writes ESC as itself"],
    True: ["encode U+000E as 0E                             # CPython writes SO, SI and ESC as themselves",
           "encode U+000F as 0F", "encode U+001B as 1B"],
}


def iso8859_7(byte: int) -> int | None:
    """ISO8859_7_DECODE(byte ^ 0x80): the code point ESC N byte gives with ISO-8859-7 in G2."""
    c = byte ^ 0x80
    if c < 0xA0 or (c < 0xC0 and (0x288F3BC9 >> (c - 0xA0)) & 1):
        return c
    if 0xB4 <= c <= 0xFE and (c >= 0xD4 or (0xBFFFFD77 >> (c - 0xB4)) & 1):
        return 0x2D0 + c
    return {0xA1: 0x2018, 0xA2: 0x2019, 0xAF: 0x2015}.get(c)


def single_shift_lines(g2: str) -> list[str]:
    """ESC N and one byte, read in G2 (iso2022processg2): ASCII and ISO-8859-1 take 00..7F
    (to U+0000 and U+0080), ISO-8859-7 its table; any other byte is an error of all three.
    G2 holding JIS X 0201 Roman is CPython's internal error (a RuntimeError)."""
    if g2 == "roman":
        return ['ill-formed pattern ss2-internal: 1B 4E 00..FF "internal codec error"',
                'ill-formed pattern ss2-cut: 1B 4E end "incomplete multibyte sequence"']
    def value(b: int) -> int | None:
        if g2 == "greek":
            return iso8859_7(b)
        return None if b >= 0x80 else b + (0x80 if g2 == "latin1" else 0)
    out, b = [], 0
    while b < 256:
        v, e = value(b), b
        while e + 1 < 256 and (value(e + 1) is None if v is None else value(e + 1) == v + e + 1 - b):
            e += 1
        run = f"{b:02X}" if b == e else f"{b:02X}..{e:02X}"
        if v is None:
            out.append(f'ill-formed pattern ss2-bad-{b:02x}: 1B 4E {run} "illegal multibyte sequence"')
        else:
            out.append(f"form ss2-{b:02x}: 1B 4E {run} at U+{v:04X}" if b != e else f"form ss2-{b:02x}: 1B 4E {run} = U+{v:04X}")
        b = e + 1
    return out + ['ill-formed pattern ss2-cut: 1B 4E end "incomplete multibyte sequence"']


def _named(line: str, mode: str) -> str:
    """Names are the whole spec's: each of a mode's starts with the mode's name."""
    for keyword in ("form ", "shift ", "ill-formed pattern "):
        if line.startswith(keyword):
            return keyword + mode + "_" + line[len(keyword):]
    return line


def _spans(values: list[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for v in values:
        if out and out[-1][1] == v - 1:
            out[-1] = (out[-1][0], v)
        else:
            out.append((v, v))
    return out


Position = frozenset[int]
NONESC: Position = frozenset(b for b in range(256) if b not in ESCEND)
AMP, AT = 0x26, 0x40


def escape_lines(codec: Codec, state: State, by_name: dict[State, str]) -> list[str]:
    """The escape sequences from this state: the designations CPython accepts (shifts to the
    state they make), each other sequence ending in A..Z or @ within 16 bytes (one error of
    its length) and each that the data ends inside (incomplete)."""
    shifts: list[tuple[bytes, State]] = []
    for esc in [bytes([0x1B, h, f]) for h, f in product(HEADERS, ESCEND)] + \
            [bytes([0x1B, 0x24, n, f]) for n, f in product((0x28, 0x29), ESCEND)] + [b"\x1b&@\x1b$B"]:
        d = designation(codec, esc)
        if d is not None:
            shifts.append((esc, _designate(codec, state, *d)))
    # the encoder's shifts first (ties go to the first written): ESC ( B, ESC $ B, ESC ( J, ESC ( I, ESC $ ( D
    shifts.sort(key=lambda s: (len(s[0]), s[0] != b"\x1b(B", s[0] != b"\x1b$B", s[0]))
    out = [f"shift esc-{'-'.join(WORDS.get(b, chr(b).lower()) for b in esc[1:])}: {esc.hex(' ').upper()} "
           f"-> {by_name[target]}" for esc, target in shifts]
    taken = [esc for esc, _ in shifts]
    terminated, cut = escape_patterns(codec.jisx0208_ext, codec.skips)
    for k, runs_ in enumerate(ranged([p for pattern in terminated for p in carve(pattern, taken)])):
        out.append(f'ill-formed pattern esc-bad{k}: 1B {ranged_items(runs_)} "illegal multibyte sequence"')
    for k, runs_ in enumerate(ranged(cut)):
        out.append(f'ill-formed pattern esc-cut{k}: 1B {ranged_items(runs_)} end "incomplete multibyte sequence"'
                   .replace("1B  end", "1B end"))
    return out


Run = tuple[Position, int, int]        # a position repeated lo..hi times


def ranged(patterns: list[list[Position]]) -> list[tuple[Run, ...]]:
    """The patterns as runs of equal positions, those that differ only in one run's count
    merged into one with a range of counts ({2,13}): the same byte sequences, fewer lines."""
    out: list[tuple[Run, ...]] = []
    for positions in patterns:
        runs_: list[Run] = []
        for pos in positions:
            if runs_ and runs_[-1][0] == pos:
                runs_[-1] = (pos, runs_[-1][1] + 1, runs_[-1][2] + 1)
            else:
                runs_.append((pos, 1, 1))
        out.append(tuple(runs_))
    changed = True
    while changed:
        changed = False
        for r in range(max((len(p) for p in out), default=0)):
            groups: dict[tuple, list[tuple[Run, ...]]] = {}
            for p in out:
                key = (len(p), tuple(x if k != r else x[0] for k, x in enumerate(p))) if r < len(p) else (p,)
                groups.setdefault(key, []).append(p)
            merged: list[tuple[Run, ...]] = []
            for members in groups.values():
                if len(members) == 1:
                    merged += members
                    continue
                members.sort(key=lambda p: p[r][1])
                cur = members[0]
                for p in members[1:]:
                    if p[r][1] == cur[r][2] + 1:
                        cur = cur[:r] + ((cur[r][0], cur[r][1], p[r][2]),) + cur[r + 1:]
                        changed = True
                    else:
                        merged.append(cur)
                        cur = p
                merged.append(cur)
            out = merged
    return out


def ranged_items(runs_: tuple[Run, ...]) -> str:
    """Runs as items: a byte, a range or an alphabet, with {n} or {m,n} where repeated."""
    out: list[str] = []
    for pos, lo, hi in runs_:
        word = runs_item(sorted(pos))
        out.append(word + ("" if lo == hi == 1 else f"{{{lo}}}" if lo == hi else f"{{{lo},{hi}}}"))
    return " ".join(out)


def escape_patterns(skip: bool, max_skips: int) -> tuple[list[list[Position]], list[list[Position]]]:
    """The bytes after ESC that iso2022processesc reads as one sequence, as positions: those
    ending in A..Z or @ (terminated) and those the data ends inside (cut).  With `skip`
    (USE_JISX0208_EXT) "& @" at a checked position skips itself and the byte after it; up
    to max_skips such skips per sequence are spelled out (more in one sequence are not)."""
    hdr: Position = frozenset(HEADERS)
    escend: Position = frozenset(ESCEND)
    skipped = [frozenset([AMP]), frozenset([AT]), frozenset(range(256))]
    bodies: list[tuple[list[Position], bool]] = []          # (positions, ends in a checked byte)

    def grow(body: list[Position], skips: int, checked_last: bool) -> None:   # every body of at most 14
        if body:
            bodies.append((body, checked_last))
        if len(body) < MAX_ESCSEQLEN - 2:
            grow(body + [hdr if not body else NONESC], skips, True)
        if skip and skips < max_skips and len(body) + 3 <= MAX_ESCSEQLEN - 2:
            grow(body + skipped, skips + 1, False)

    grow([], 0, False)
    terminated: list[list[Position]] = []
    cut: list[list[Position]] = [[]]                         # ESC alone
    for body, checked_last in bodies:
        cut.append(body)
        if skip and not checked_last and len(body) >= 3 and body[-3:] == skipped:
            cut.append(body[:-1])                            # "& @" at the end: skipped, then incomplete
        if len(body) > MAX_ESCSEQLEN - 2:
            continue
        if skip and checked_last and AMP in body[-1]:        # "& @" would skip: "&" ends only at A..Z
            terminated.append(body[:-1] + [body[-1] - {AMP}, escend])
            terminated.append(body[:-1] + [frozenset([AMP]), escend - {AT}])
        else:
            terminated.append(body + [escend])
    return terminated, cut


def carve(pattern: list[Position], taken: list[bytes]) -> list[list[Position]]:
    """The pattern less the shifts' bytes (a pattern may not override a shift): split at the
    first position where each shift leaves it."""
    parts = [pattern]
    for esc in taken:
        tail = esc[1:]
        out: list[list[Position]] = []
        for part in parts:
            if len(part) != len(tail) or any(b not in pos for b, pos in zip(tail, part)):
                out.append(part)
                continue
            for k in range(len(part)):
                rest = part[k] - {tail[k]}
                if rest:
                    out.append([frozenset([b]) for b in tail[:k]] + [rest] + part[k + 1:])
        parts = out
    return parts


ALPHABETS: dict[Position, str] = {}
# the escape sequences' positions, named as CPython's macros say them
NAMED: dict[Position, str] = {frozenset(HEADERS): "header",               # IS_ISO2022ESC: $ & ( ) .
                              NONESC: "middle",                           # not IS_ESCEND: not @ or A..Z
                              NONESC - {AMP}: "middle-no-amp"}          # "& @" would skip


def items(positions: list[Position]) -> str:
    """Positions as items: runs of equal positions repeated ({n}), each a byte, a range or an alphabet."""
    out: list[str] = []
    k = 0
    while k < len(positions):
        j = k
        while j + 1 < len(positions) and positions[j + 1] == positions[k]:
            j += 1
        word = runs_item(sorted(positions[k]))
        out.append(word if j == k else f"{word}{{{j - k + 1}}}")
        k = j + 1
    return " ".join(out)


def runs_item(values: list[int]) -> str:
    """One position admitting these bytes: a fixed byte, a range, or an alphabet."""
    r = runs(values)
    if ", " not in r:
        return r
    key = frozenset(values)
    return ALPHABETS.setdefault(key, NAMED.get(key) or f"set{sum(n.startswith('set') for n in ALPHABETS.values())}")


def _designate(codec: Codec, state: State, g: int, charset: str) -> State:
    if g == 1 and not codec.shifts:             # NO_SHIFT: G1 is set and never read
        return state
    if g == 0:
        return replace(state, g0=charset)
    if g == 2:
        return replace(state, g2=charset)
    return replace(state, g1=charset)


def write(codec: Codec) -> str:
    every = states(codec)
    by_name = {s: s.name(codec) for s in every}
    tables = [c for c in charsets(codec) if c in TABLE_FILES]
    lines = _wrapped(HEADER[codec.name]) + [
        "",
        f"encoding {codec.name}",
        f'title    "{codec.title}"',
        f"aliases  {codec.aliases}",
        f'source   "CPython 3.11 Modules/cjkcodecs/_codecs_iso2022.c ({codec.name}); {SOURCES[codec.name]}"',
        "",
        "code-space U+0000..U+10FFFF",
        "ill-formed U+D800..U+DFFF            # surrogates: CPython neither decodes nor encodes them",
        "error-span one-unit",
        "",
    ]
    for t in tables:
        lines += [f'table {t} "{table_path(codec)}{TABLE_FILES[t]}"'] + table_options(t)
    lines += ["", "alphabet lead-bad = 20, 7F",
              "alphabet trail-bad = 00..20, 7F..FF"]
    if "ksc" in tables:
        lines.append("alphabet kslead = 21..23, 25..7E                 # KS X 1001 rows 1..94 but 4 (jamo)")
    ALPHABETS.clear()
    body: list[str] = []
    for s in every:
        body += [""] + [_named(line, by_name[s]) for line in mode_lines(codec, s, by_name)]
    for values, name in ALPHABETS.items():
        lines.append(f"alphabet {name} = {runs(list(values))}")
    lines += body
    lines += [""] + ENCODER[codec.name].strip("\n").splitlines()
    lines += ["",
              'reason invalid-start        "illegal multibyte sequence"',
              'reason invalid-continuation "illegal multibyte sequence"',
              'reason unmapped             "illegal multibyte sequence"',
              'reason unencodable          "illegal multibyte sequence"',
              'reason unexpected-end       "incomplete multibyte sequence"']
    return "\n".join(lines) + "\n"


SOURCES = {
    "iso2022_kr": "mappings_kr.h (KS X 1001)",
    "iso2022_jp": "mappings_jp.h (JIS0208.TXT)",
    "iso2022_jp_1": "mappings_jp.h (JIS0208.TXT, JIS0212.TXT)",
    "iso2022_jp_ext": "mappings_jp.h (JIS0208.TXT, JIS0212.TXT)",
    "iso2022_jp_2": "mappings_jp.h, mappings_kr.h, mappings_cn.h",
    "iso2022_jp_2004": "mappings_jp.h, mappings_jisx0213_pair.h",
    "iso2022_jp_3": "mappings_jp.h, mappings_jisx0213_pair.h, emu_jisx0213_2000.h",
}

COMMON = """\
#
# Written by specs/tables/cpython/iso2022.py (do not edit: change the script and run it).
#
# How the bytes are read.  CPython's decoder keeps G0{g1}{flags} and an "ESC
# throughout" flag; each reachable combination is a mode here, named after them
# ({naming}).  In each mode: ESC, SO and SI aside, bytes
# 00..1F are themselves (CPython's "bypass"); 20..7F are read in the charset in
# use: ASCII; JIS X 0201 Roman (5C is U+00A5, 7E U+203E); JIS X 0201 katakana
# (21..5F from U+FF61, any other byte one error); or a 94x94 set, whose lead byte
# 20..7F takes the next byte whatever it is (an error of both bytes unless both
# are 21..7E and the table has the pointer, (lead - 21) * 94 + trail - 21, the
# EUC tables' pointer less 80 80).  Bytes 80..FF are one error.
#
# Escape sequences are read as iso2022processesc reads them: ESC, one of $ & ( ) .,
# then bytes up to the first @ or A..Z within 16 bytes.  ESC ( F designates a
# one-byte set F to G0, ESC ) F to G1, ESC $ F and ESC $ ( F a 94x94 set to G0,
# ESC $ ) F to G1, when the codec knows the set (ASCII always); any other such
# sequence is one error of its length; data that ends inside one is one
# "incomplete multibyte sequence" to the end.  ESC followed by any other byte is
# itself, and every byte after it is Latin-1 through the next @ or A..Z (the
# "-esc" modes: ESC throughout).{extra}
#
# Errors are CPython's: "illegal multibyte sequence" of one byte, of both bytes
# of a 94x94 character, or of an escape sequence's length; "incomplete multibyte
# sequence" where the data ends inside a character or an escape sequence.  One case
# is not said: ESC, one of $ & ( ) . and 14 bytes without @ or A..Z, which CPython
# makes an error of the ESC alone (an error shorter than the bytes that decide it);
# here the ESC is itself and ESC throughout follows.
"""

def _wrapped(comment: str) -> list[str]:
    """A comment's paragraphs (separated by a bare "#") filled to 86 columns."""
    paragraphs = comment.strip("\n").split("\n#\n")
    out: list[str] = []
    for k, paragraph in enumerate(paragraphs):
        text = " ".join(line.removeprefix("#").strip() for line in paragraph.splitlines())
        out += (["#"] if k else []) + textwrap.wrap(text, 84, initial_indent="# ", subsequent_indent="# ",
                                                    break_on_hyphens=False)
    return out


def _jp_header(title: str, codec: str, tables: str, files: str, sets: str, skips: str = "two skips",
               naming: str = "the G0 charset", g2: str = "") -> str:
    """The header of an iso2022_jp* spec: what it is, how it reads, how it writes."""
    return (f"# {title} as CPython decodes and encodes it: CPython 3.11\n"
            f"# Modules/cjkcodecs/_codecs_iso2022.c ({codec}), with the {tables} of\n"
            f"# the euc_jp spec (tables/cpython/euc_jp-{files}).\n"
            + COMMON.format(g1="", flags=", G2" if g2 else "", naming=naming,
                            extra="\n# NO_SHIFT: SO and SI are characters; G1 designations are read and change nothing."
                            "\n# USE_JISX0208_EXT: ESC & @ ESC $ B designates JIS X 0208, and \"& @\" inside an"
                            f" escape sequence skips itself and the byte after it (at most {skips} per"
                            " sequence spelled out)." + g2)
            + "#\n# The encoder writes each character in the first of ASCII, JIS X 0208 (ESC $ B),\n"
            f"# {sets} that holds it, and ends every text in ASCII.\n")


HEADER = {
    "iso2022_kr": "# ISO-2022-KR (RFC 1557) as CPython decodes and encodes it: CPython 3.11\n"
    "# Modules/cjkcodecs/_codecs_iso2022.c (iso2022_kr), with the KS X 1001 table of\n"
    "# the euc_kr spec (tables/cpython/euc_kr-ksx1001.txt; row 4, the jamo, by formula).\n"
    + COMMON.format(g1=", G1", flags=", the shift flag (SO sets it, SI and a line feed clear it),",
                    naming="G0-G1, -so: shifted", extra="") + """#
# CPython's encoder writes ASCII as itself (after SI where shifted) and KS X 1001
# in G1: ESC $ ) C once per text, SO before each run, SI at the end.  Here: the
# encoder takes, of the modes that hold a character, the one its shifts reach
# with the fewest bytes (`cheapest`: after SI it stays in ascii-ksc, G1 still
# designated), and a text may end in either unshifted mode.
""",
    "iso2022_jp": _jp_header("ISO-2022-JP (RFC 1468)", "iso2022_jp", "JIS X 0208 table", "jis0208.txt: 21 40 is U+FF3C",
                             "JIS X 0201 Roman (ESC ( J)"),
    "iso2022_jp_1": _jp_header("ISO-2022-JP-1 (RFC 2237)", "iso2022_jp_1", "JIS X 0208 and JIS X 0212 tables",
                               "jis0208.txt, -jis0212.txt", "JIS X 0212 (ESC $ ( D), JIS X 0201 Roman (ESC ( J)"),
    "iso2022_jp_2": _jp_header("ISO-2022-JP-2 (RFC 1554)", "iso2022_jp_2", "JIS X 0208 and JIS X 0212 tables",
                               "jis0208.txt, -jis0212.txt; KS X 1001 and GB 2312 from the euc_kr and gb2312 specs",
                               "JIS X 0212 (ESC $ ( D), KS X 1001 (ESC $ ( C), GB 2312 (ESC $ ( A), JIS X 0201 Roman"
                               " (ESC ( J)", "one skip", "the G0 charset, -g2X: G2 holds X",
                               " USE_G2: ESC . A and ESC . F designate ISO-8859-1 and -7 to G2 (ESC ( A and ESC ( F"
                               " to G0, where CPython reads every byte as an error), and ESC N reads one byte in G2"
                               " (ISO-8859-1: 00..7F from U+0080; ISO-8859-7 by ISO8859_7_DECODE; ASCII: 00..7F; any"
                               " other byte an error of all three).  G2 holding JIS X 0201 Roman (ESC . J) makes"
                               " CPython raise a RuntimeError at ESC N; here it is an error \"internal codec error\"."),
    "iso2022_jp_ext": _jp_header("ISO-2022-JP-EXT", "iso2022_jp_ext", "JIS X 0208 and JIS X 0212 tables",
                                 "jis0208.txt, -jis0212.txt", "JIS X 0212 (ESC $ ( D), JIS X 0201 Roman (ESC ( J),\n"
                                 "# JIS X 0201 katakana (ESC ( I)"),
    "iso2022_jp_2004": _jp_header("ISO-2022-JP-2004 (JIS X 0213:2004)", "iso2022_jp_2004",
                                  "JIS X 0213 plane 1 and plane 2 tables", "jis0208.txt and of the euc_jis_2004 spec"
                                  " (euc_jis_2004-plane1.txt, -plane2.txt; plane 1's 25 entries of two code points"
                                  " are sequences)", "JIS X 0213 plane 1 (ESC $ ( Q), plane 2 (ESC $ ( P); a pair of"
                                  " plane 1 (U+304B U+309A) before all"),
    "iso2022_jp_3": _jp_header("ISO-2022-JP-3 (JIS X 0213:2000)", "iso2022_jp_3",
                               "JIS X 0213 plane 1 and plane 2 tables", "jis0208.txt and of the euc_jisx0213 spec"
                               " (euc_jisx0213-plane1.txt, -plane2.txt; plane 1's 25 entries of two code points"
                               " are sequences)", "JIS X 0213 plane 1 (ESC $ ( O), plane 2 (ESC $ ( P); a pair of"
                               " plane 1 (U+304B U+309A) before all"),
}

ENCODER = {
    "iso2022_kr": "encode-modes ascii-ascii, ascii-ksc, ascii-ksc-so cheapest\nencode-end ascii-ascii, ascii-ksc\n",
    "iso2022_jp": "encode-modes ascii, jis0208, roman\n",
    "iso2022_jp_1": "encode-modes ascii, jis0208, jis0212, roman\n",
    "iso2022_jp_ext": "encode-modes ascii, jis0208, jis0212, roman, katakana\n",
    "iso2022_jp_2": "encode-modes ascii, jis0208, jis0212, ksc, gb2312, roman\n",
    "iso2022_jp_2004": "encode-modes ascii, jis0208, jisx0213-2004-1, jisx0213-2004-2\n",
    "iso2022_jp_3": "encode-modes ascii, jis0208, jisx0213-2000-1, jisx0213-2000-2\n",
}


def destination(codec: Codec) -> Path:
    """A built-in's file is specs/NAME.encspec; a test spec's tests/data/modes/NAME-WITH-DASHES.encspec."""
    if codec.name in BUILTIN:
        return SPECS / f"{codec.name}.encspec"
    return MODES / f"{codec.name.replace('_', '-')}.encspec"


def table_path(codec: Codec) -> str:
    """The tables' folder relative to the spec's."""
    return "tables/cpython/" if codec.name in BUILTIN else "../../../specs/tables/cpython/"


def main(argv: list[str]) -> int:
    for codec in CODECS:
        destination(codec).write_text(write(codec), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
