"""Writes the specs of CPython's ISO-2022 codecs (iso2022_kr, iso2022_jp, iso2022_jp_1,
iso2022_jp_ext) into this folder: ``python tests/data/modes/iso2022.py``.

CPython's decoder (Modules/cjkcodecs/_codecs_iso2022.c) keeps G0, G1, a shift flag and an
"ESC throughout" flag; each spec spells that state as a flat set of modes, one for each
combination the codec can reach, and every mode repeats the escape sequences with the
designations they make from it.  Written out by hand that is hundreds of near-identical
lines; this script is the one place they are decided, and tests/test_modes_cpython.py
checks that the files here are what it writes.
"""
from __future__ import annotations

import sys
import textwrap
from dataclasses import dataclass
from itertools import product
from pathlib import Path

HERE = Path(__file__).resolve().parent
TABLES = HERE.parents[2] / "specs" / "tables" / "cpython"
TABLE_PATH = "../../../specs/tables/cpython/"

ESCEND = [0x40] + list(range(0x41, 0x5B))     # IS_ESCEND: A..Z or @
HEADERS = [0x24, 0x26, 0x28, 0x29, 0x2E]         # IS_ISO2022ESC: $ & ( ) .
MAX_ESCSEQLEN = 16
WORDS = {0x1B: "esc", 0x24: "d", 0x26: "amp", 0x28: "g0", 0x29: "g1", 0x40: "at"}   # a shift's name, byte by byte


@dataclass(frozen=True)
class Charset:
    """One of CPython's designations: its final byte (the ESCMARK), width and table."""

    name: str
    final: int
    dbcs: bool


ASCII = Charset("ascii", 0x42, False)
ROMAN = Charset("roman", 0x4A, False)
KATAKANA = Charset("katakana", 0x49, False)
JIS0208 = Charset("jis0208", 0x42, True)
JIS0208_O = Charset("jis0208", 0x40, True)       # ESC $ @: the same decoder, so the same mode
JIS0212 = Charset("jis0212", 0x44, True)
KSX1001 = Charset("ksc", 0x43, True)


@dataclass(frozen=True)
class Codec:
    name: str
    title: str
    aliases: str
    designations: tuple[Charset, ...]           # the codec's list, in its order (the encoder's preference)
    shifts: bool                                # SO/SI and G1 (iso2022_kr); else NO_SHIFT
    jisx0208_ext: bool                          # USE_JISX0208_EXT: ESC & @ ESC $ B


CODECS = (
    Codec("iso2022_kr", "ISO-2022-KR (CPython's iso2022_kr codec, RFC 1557)", "csiso2022kr, iso2022kr, iso-2022-kr",
          (KSX1001,), True, False),
    Codec("iso2022_jp", "ISO-2022-JP (CPython's iso2022_jp codec, RFC 1468)", "csiso2022jp, iso2022jp, iso-2022-jp",
          (JIS0208, ROMAN, JIS0208_O), False, True),
    Codec("iso2022_jp_1", "ISO-2022-JP-1 (CPython's iso2022_jp_1 codec, RFC 2237)", "iso2022jp-1, iso-2022-jp-1",
          (JIS0208, JIS0212, ROMAN, JIS0208_O), False, True),
    Codec("iso2022_jp_ext", "ISO-2022-JP-EXT (CPython's iso2022_jp_ext codec)", "iso2022jp-ext, iso-2022-jp-ext",
          (JIS0208, JIS0212, ROMAN, KATAKANA, JIS0208_O), False, True),
)

TABLE_FILES = {"jis0208": "euc_jp-jis0208.txt", "jis0212": "euc_jp-jis0212.txt", "ksc": "euc_kr-ksx1001.txt"}


@dataclass(frozen=True)
class State:
    """CPython's decoder state: G0, G1, the shift flag, ESC throughout."""

    g0: str
    g1: str = "ascii"
    shifted: bool = False
    through: bool = False

    def name(self, codec: Codec) -> str:
        if not codec.shifts:
            return self.g0 + ("-esc" if self.through else "")
        return f"{self.g0}-{self.g1}" + ("-so" if self.shifted else "") + ("-esc" if self.through else "")

    @property
    def charset(self) -> str:
        return self.g1 if self.shifted else self.g0


def charsets(codec: Codec) -> list[str]:
    names = ["ascii"]
    for c in codec.designations:
        if c.name not in names:
            names.append(c.name)
        if c is JIS0212:        # ESC $ D: a twin of ESC $ ( D's mode, so that the encoder writes the latter
            names.append("jis0212-3")
    return names


def states(codec: Codec) -> list[State]:
    sets = charsets(codec)
    if not codec.shifts:
        return [State(g0, through=t) for t in (False, True) for g0 in sets]
    return [State(g0, g1, s, t) for t in (False, True) for g0 in sets for g1 in sets for s in (False, True)]


def designation(codec: Codec, esc: bytes) -> tuple[int, str] | None:
    """iso2022processesc on a complete escape sequence of 3 or 4 bytes (or ESC & @ ESC $ B):
    (G number, charset) or None (an error of the sequence's length)."""
    if len(esc) == 3:
        if esc[1] == 0x24:
            g, final, dbcs = 0, esc[2], True
        elif esc[1] in (0x28, 0x29):
            g, final, dbcs = (0 if esc[1] == 0x28 else 1), esc[2], False
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
            return g, c.name + ("-3" if c is JIS0212 and len(esc) == 3 else "")
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


def pointers(table: str) -> set[int]:
    lines = (TABLES / TABLE_FILES[table]).read_text(encoding="utf-8").splitlines()
    return {int(line.split("\t")[0]) for line in lines if line and not line.startswith("#")}


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
        home = by_name[State(state.g0, state.g1, state.shifted, False)]
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
        plain = by_name[State(state.g0, state.g1, False, False)]
        out.append(f"form lf: 0A = U+000A -> {plain}" if state.shifted else "form lf: 0A = U+000A")
    if cs == "ascii":
        out.append("form ascii: 20..7F at U+0020")
    elif cs == "roman":
        out += ["form roman: 20..5B at U+0020", "form yen: 5C = U+00A5", "form roman-2: 5D..7D at U+005D",
                "form overline: 7E = U+203E", "form roman-del: 7F = U+007F"]
    elif cs == "katakana":
        out += ["form katakana: 21..5F at U+FF61",
                'ill-formed pattern no-katakana: 20 "illegal multibyte sequence"',
                'ill-formed pattern no-katakana-2: 60..7F "illegal multibyte sequence"']
    else:
        cs = cs.removesuffix("-3")
        if cs == "ksc":
            out += ["form jamo: 24 21..7E at U+3131", "form ksc: kslead 21..7E table ksc"]
        else:
            out.append(f"form {cs}: 21..7E 21..7E table {cs}")
        out += [f'ill-formed pattern {cs}-lead: lead-bad 00..FF "illegal multibyte sequence"',
                f'ill-formed pattern {cs}-trail: 21..7E trail-bad "illegal multibyte sequence"']
        out += [f'ill-formed pattern {cs}-unmapped-{k}: {p} "illegal multibyte sequence"'
                for k, p in enumerate(unmapped_patterns(cs))]
    through = by_name[State(state.g0, state.g1, state.shifted, True)]
    out += [f"form esc: 1B = U+001B -> {through}"]
    out += escape_lines(codec, state, by_name)
    if codec.shifts:            # after the escape sequences: the encoder designates G1 before SO
        out += [f"shift so: 0E -> {by_name[State(state.g0, state.g1, True)]}",
                f"shift si: 0F -> {by_name[State(state.g0, state.g1, False)]}"]
    if state == every_first(codec):
        out += ENCODE_ENTRIES[codec.shifts]
    return out


def every_first(codec: Codec) -> State:
    return states(codec)[0]


ENCODE_ENTRIES = {
    False: ["encode U+001B as 1B                             # CPython writes ESC as itself"],
    True: ["encode U+000E as 0E                             # CPython writes SO, SI and ESC as themselves",
           "encode U+000F as 0F", "encode U+001B as 1B"],
}


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
MAX_SKIPS = 2       # "& @" skips spelled out per sequence


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
    terminated, cut = escape_patterns(codec.jisx0208_ext)
    for k, positions in enumerate(p for pattern in terminated for p in carve(pattern, taken)):
        out.append(f'ill-formed pattern esc-bad{k}: 1B {items(positions)} "illegal multibyte sequence"')
    for k, positions in enumerate(cut):
        out.append(f'ill-formed pattern esc-cut{k}: 1B {items(positions)} end "incomplete multibyte sequence"'
                   .replace("1B  end", "1B end"))
    return out


def escape_patterns(skip: bool) -> tuple[list[list[Position]], list[list[Position]]]:
    """The bytes after ESC that iso2022processesc reads as one sequence, as positions: those
    ending in A..Z or @ (terminated) and those the data ends inside (cut).  With `skip`
    (USE_JISX0208_EXT) "& @" at a checked position skips itself and the byte after it; up
    to MAX_SKIPS such skips per sequence are spelled out (more in one sequence are not)."""
    hdr: Position = frozenset(HEADERS)
    escend: Position = frozenset(ESCEND)
    skipped = [frozenset([AMP]), frozenset([AT]), frozenset(range(256))]
    bodies: list[tuple[list[Position], bool]] = []          # (positions, ends in a checked byte)

    def grow(body: list[Position], skips: int, checked_last: bool) -> None:   # every body of at most 14
        if body:
            bodies.append((body, checked_last))
        if len(body) < MAX_ESCSEQLEN - 2:
            grow(body + [hdr if not body else NONESC], skips, True)
        if skip and skips < MAX_SKIPS and len(body) + 3 <= MAX_ESCSEQLEN - 2:
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
    return ALPHABETS.setdefault(frozenset(values), f"set{len(ALPHABETS)}")


def _designate(codec: Codec, state: State, g: int, charset: str) -> State:
    if g == 1 and not codec.shifts:             # NO_SHIFT: G1 is set and never read
        return state
    if g == 0:
        return State(charset, state.g1, state.shifted)
    return State(state.g0, charset, state.shifted)


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
    lines += [f'table {t} "{TABLE_PATH}{TABLE_FILES[t]}"' for t in tables]
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
}

COMMON = """\
#
# Written by tests/data/modes/iso2022.py (do not edit: change the script and run it).
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


def _jp_header(title: str, codec: str, tables: str, files: str, sets: str) -> str:
    """The header of an iso2022_jp* spec: what it is, how it reads, how it writes."""
    return (f"# {title} as CPython decodes and encodes it: CPython 3.11\n"
            f"# Modules/cjkcodecs/_codecs_iso2022.c ({codec}), with the {tables} of\n"
            f"# the euc_jp spec (tables/cpython/euc_jp-{files}).\n"
            + COMMON.format(g1="", flags="", naming="the G0 charset",
                            extra="\n# NO_SHIFT: SO and SI are characters; G1 designations are read and change nothing."
                            "\n# USE_JISX0208_EXT: ESC & @ ESC $ B designates JIS X 0208, and \"& @\" inside an"
                            " escape sequence skips itself and the byte after it (two such skips in one"
                            " sequence are spelled out).")
            + "#\n# The encoder writes each character in the first of ASCII, JIS X 0208 (ESC $ B),\n"
            f"# {sets} that holds it, and ends every text in ASCII.\n")


HEADER = {
    "iso2022_kr": "# ISO-2022-KR (RFC 1557) as CPython decodes and encodes it: CPython 3.11\n"
    "# Modules/cjkcodecs/_codecs_iso2022.c (iso2022_kr), with the KS X 1001 table of\n"
    "# the euc_kr spec (tables/cpython/euc_kr-ksx1001.txt; row 4, the jamo, by formula).\n"
    + COMMON.format(g1=", G1", flags=", the shift flag (SO sets it, SI and a line feed clear it),",
                    naming="G0-G1, -so: shifted", extra="") + """#
# CPython's encoder writes ASCII as itself (after SI where shifted) and KS X 1001
# in G1: ESC $ ) C once per text, SO before each run, SI at the end.  This spec's
# encoder cannot say "once": encode-modes returns to the first mode (ascii-ascii)
# for ASCII, so it writes SO ESC $ ) C before each run and SI ESC ) B after it
# (tests/test_modes_cpython.py pins exactly that difference).
""",
    "iso2022_jp": _jp_header("ISO-2022-JP (RFC 1468)", "iso2022_jp", "JIS X 0208 table", "jis0208.txt: 21 40 is U+FF3C",
                             "JIS X 0201 Roman (ESC ( J)"),
    "iso2022_jp_1": _jp_header("ISO-2022-JP-1 (RFC 2237)", "iso2022_jp_1", "JIS X 0208 and JIS X 0212 tables",
                               "jis0208.txt, -jis0212.txt", "JIS X 0212 (ESC $ ( D), JIS X 0201 Roman (ESC ( J)"),
    "iso2022_jp_ext": _jp_header("ISO-2022-JP-EXT", "iso2022_jp_ext", "JIS X 0208 and JIS X 0212 tables",
                                 "jis0208.txt, -jis0212.txt", "JIS X 0212 (ESC $ ( D), JIS X 0201 Roman (ESC ( J),\n"
                                 "# JIS X 0201 katakana (ESC ( I)"),
}

ENCODER = {
    "iso2022_kr": "encode-modes ascii-ascii, ascii-ksc-so\n",
    "iso2022_jp": "encode-modes ascii, jis0208, roman\n",
    "iso2022_jp_1": "encode-modes ascii, jis0208, jis0212, roman\n",
    "iso2022_jp_ext": "encode-modes ascii, jis0208, jis0212, roman, katakana\n",
}


def main(argv: list[str]) -> int:
    for codec in CODECS:
        (HERE / f"{codec.name.replace('_', '-')}.encspec").write_text(write(codec), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
