"""The Python backend's fast path: spec-specific code for the common case.

A byte pattern qualifies when every byte string it matches drives the
automaton into a *final* accepting state: such a sequence is a whole token
whatever follows, so a regex may cut runs of them without changing the
longest-match semantics.  Single bytes that stand for themselves decode with
the built-in latin-1 codec; other sequences get straight-line arithmetic per
form (Horner over the digit positions, then the row's offset).
"""
from __future__ import annotations

from bisect import bisect_right

from ..automaton import DEAD, Automaton, Segment
from ..automaton.bytesets import byte_runs as _runs_of
from ..automaton.forms import CompositeForm, DigitsForm, LiteralForm
from ..runtime.tables import scan


def one_line(text: str) -> str:
    """*text* fit for a comment: one line, every character printable (others escaped)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))


def _cls(runs) -> str:
    return "[" + "".join(f"\\x{lo:02x}" if lo == hi else f"\\x{lo:02x}-\\x{hi:02x}" for lo, hi in runs) + "]"


def _pattern_regex(pattern) -> str:
    return "".join(_cls(pos) for pos in pattern)


def _final_parts(a: Automaton, pattern, action: int) -> list:
    """The parts of *pattern* whose bytes drive the automaton from state 0 into a
    final state that accepts with *action*, each a pattern of its own (a byte run
    per position) whose bytes take one path of states: such a sequence is a whole
    token whatever follows.  [] when there are more than MAX_PARTS."""
    parts: list = []

    def walk(state, k, prefix):
        if len(parts) > MAX_PARTS:
            return
        if k == len(pattern):
            if a.final(state) and a.accept[state] == action:
                parts.append(tuple(prefix))
            return
        by_next: dict[int, list[int]] = {}
        for lo, hi in pattern[k]:
            for b in range(lo, hi + 1):
                t = a.step(state, b)
                if t != DEAD and t < a.n_states:
                    by_next.setdefault(t, []).append(b)
        for t in sorted(by_next):
            walk(t, k + 1, prefix + [tuple(_runs_of(by_next[t]))])

    walk(0, 0, [])
    return parts if len(parts) <= MAX_PARTS else []


def _horner(positions, start: int, subs: list[str], order=None) -> str:
    """Straight-line arithmetic for the raw value: the digits most significant first
    (in *order*, or byte order), each from its byte."""
    expr = ""
    for k in order or range(len(positions)):
        runs = positions[k]
        radix = sum(hi - lo + 1 for lo, hi in runs)
        if len(runs) == 1:
            digit = f"p[{start + k}] - 0x{runs[0][0]:02X}" if start + k else f"b - 0x{runs[0][0]:02X}"  # one run: sub = its first byte
        else:
            table = f"_DIGITS{len(subs)}"
            subs.append(repr(bytes(_digit_table(runs))))
            digit = f"{table}[p[{start + k}]]"
        expr = f"({digit})" if not expr else f"({expr}) * {radix} + ({digit})"
    return expr or "0"


def _digit_table(runs) -> list[int]:
    table = [0] * 256
    base = 0
    for lo, hi in runs:
        for b in range(lo, hi + 1):
            table[b] = base + b - lo
        base += hi - lo + 1
    return table


def fast_path(a: Automaton) -> dict:
    """Template context: latin byte class, the codec that decodes runs of pieces as
    they are and those pieces' regexes, the other pieces' regexes (all as bytes
    literals), and _piece_value's source."""
    latin = set()
    for b in range(256):
        t = a.step(0, b)
        if 0 <= t < a.n_states and a.final(t):
            tok = scan(a, bytes([b]), 0)
            if tok[0] == "char" and tok[3] == b:
                latin.add(b)
    branches: list = []
    tables: list[str] = []
    bytes_at: dict[tuple, list] = {}  # (form, length) -> per position, the bytes its pieces have there
    parts: dict[tuple, list] = {}
    first_row: dict[tuple, Segment] = {}  # (form, length) -> its first row
    for row, patterns in zip(a.rows, a.row_patterns):
        if row.length == 1 and all(p[0][0][0] in latin for p in patterns):
            continue
        action = _action_of(a, patterns[0])
        if action is None:
            continue
        key = (row.form, row.length)
        for p in (part for pattern in patterns for part in _final_parts(a, pattern, action)):
            sets = bytes_at.setdefault(key, [set() for _ in p])
            for k, pos in enumerate(p):
                sets[k].update(b for lo, hi in pos for b in range(lo, hi + 1))
            parts.setdefault(key, []).append(p)
            first_row.setdefault(key, row)
    # a piece's form is told by its length and its bytes: forms whose pieces share a
    # length and overlap at every position (WTF-16's units) cannot be, so they go
    # through the automaton instead
    masks = {key: tuple(sum(1 << b for b in got) for got in sets) for key, sets in bytes_at.items()}
    clash: set = set()
    need: dict = {}
    for length in {key[1] for key in masks}:
        alike = [key for key in masks if key[1] == length]
        clash |= set(alike) - set(_positions_to_tell(alike, masks))
        need.update(_positions_to_tell([key for key in alike if key not in clash], masks))
    same_rows: dict[tuple, list] = {}  # (form, length) -> its rows, by raw value
    for r in sorted(a.rows, key=lambda r: r.raw_lo):
        same_rows.setdefault((r.form, r.length), []).append(r)
    valued = []  # (part, its value as const + weighted digits, or None)
    for key, sets in bytes_at.items():
        if key in clash:
            continue
        row = first_row[key]
        valued += [(p, _linear_value(a, a.forms[row.form], row, p, same_rows[key])) for p in parts[key]]
        branches.append(_branch(a, row, a.forms[row.form], sets, need[key], tables, same_rows[key]))
    codec, codec_latin, split = _codec(valued, latin)
    return {
        "latin": repr(_cls(_runs_of(latin)).encode("ascii")) if latin else "None",
        "codec": repr(codec),
        "codec_latin": repr(codec_latin),
        "codec_pieces": [repr(_pattern_regex(p).encode("ascii")) for p, ok in split if ok],
        "pieces": [repr(_pattern_regex(p).encode("ascii")) for p, ok in split if not ok],
        "branches": branches,
        "digit_tables": tables,
    }


# ------------------------------------------------------- pieces a codec decodes
# CPython's codecs that decode a run of whole sequences as the sequences one by one
# (no state, no signature): a spec's pieces that one of them decodes to the same
# code points, and its latin bytes if it decodes them to themselves, are decoded in
# runs by that codec, in C.  Which pieces those are is found by decoding every byte
# sequence a piece's pattern matches, at build time, and comparing with its value.
CODECS = ("utf-8", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be")
MAX_BOX = 1 << 22  # the most byte sequences a pattern may match to be checked
MAX_PARTS = 256  # the most paths one pattern may split into (see _final_parts)
MAX_LEFT = 4  # the most parts a codec leaves over of one pattern cut in halves (see _split)


def _positions_to_tell(keys: list, masks: dict) -> dict:
    """For each of *keys* (pieces of one length, each with its bytes per position as
    bit masks), how many leading positions tell its pieces from every other key's:
    1 + the longest run of first positions where another key's bytes overlap its own
    (at least 1).  Keys whose bytes overlap another's at every position (a clash) are
    left out.

    Keys with the same bytes so far go down together, and at each position only the
    keys still overlapping are looked at, found through an index by byte: the cost
    follows the overlaps, not the square of the number of keys."""
    need: dict = {}
    work = [(keys, keys, 0)]  # (keys alike at the first k positions, keys overlapping them there, k)
    while work:
        group, overlapping, k = work.pop()
        if len(overlapping) == 1:
            need[group[0]] = max(k, 1)
            continue
        if k == len(masks[group[0]]):
            continue  # a clash: alike or overlapping at every position
        by_mask: dict[int, list] = {}
        for key in overlapping:
            by_mask.setdefault(masks[key][k], []).append(key)
        by_byte: dict[int, list[int]] = {}
        for mask in by_mask:
            for b in _bits(mask):
                by_byte.setdefault(b, []).append(mask)
        split: dict[int, list] = {}
        for key in group:
            split.setdefault(masks[key][k], []).append(key)
        for mask, alike in split.items():
            met = {m for b in _bits(mask) for m in by_byte[b]}
            work.append((alike, [key for m in met for key in by_mask[m]], k + 1))
    return need


def _bits(mask: int) -> list[int]:
    """The bytes of a bit mask of bytes."""
    return [b for b in range(mask.bit_length()) if mask >> b & 1]


def _linear_value(a: Automaton, form, row, part, same: list):
    """(const, [(position, digit table, weight)]): the value _piece_value gives a piece
    of *part* is const + the sum of weight * digit table[byte at position]; None when
    it is not one sum on the whole part (rows of different offsets; *same*: the rows of
    the form and length, by raw value, found by bisection: a form cut by many skips has
    a part for each of its many rows)."""
    if isinstance(form, LiteralForm):
        return row.first, []
    if isinstance(form, CompositeForm):
        sub = a.forms[form.sub]
        assert isinstance(sub, DigitsForm)  # a surrogate pair's units are a linear form
        half = len(sub.positions)
        hi = _weights(sub.positions, 0, None)
        lo = _weights(sub.positions, half, None)
        terms = [(k, t, 1024 * w) for k, t, w in hi] + lo
        return 0x10000 + (sub.at - 0xD800) * 1024 + sub.at - 0xDC00, terms
    terms = _weights(form.positions, 0, form.order)
    lo, hi = _span(terms, part)
    k = bisect_right(same, lo, key=lambda r: r.raw_lo) - 1
    if k >= 0 and hi <= same[k].raw_hi:
        return same[k].offset, terms
    return None


def _weights(positions, start, order):
    """[(position, digit table, weight)] of a Horner sum over *positions* (most
    significant first in *order*, or in byte order), the first at *start*."""
    out, weight = [], 1
    for k in reversed(order or range(len(positions))):
        out.append((start + k, bytes(_digit_table(positions[k])), weight))
        weight *= sum(hi - lo + 1 for lo, hi in positions[k])
    return out


def _span(terms, part):
    """The least and greatest sum of weighted digits over the bytes *part* matches."""
    lo = hi = 0
    for k, table, w in terms:
        digits = [table[b] for a, z in part[k] for b in range(a, z + 1)]
        lo += w * min(digits)
        hi += w * max(digits)
    return lo, hi


def _box(part):
    """Every byte sequence *part* matches, concatenated, its columns (the bytes at
    each position, in the same order) and how many there are."""
    sizes = [sum(hi - lo + 1 for lo, hi in pos) for pos in part]
    count = 1
    for s in sizes:
        count *= s
    buf = bytearray(len(part) * count)
    columns, inner, outer = [], count, 1
    for k, pos in enumerate(part):
        inner //= sizes[k]
        column = b"".join(bytes([b]) * inner for lo, hi in pos for b in range(lo, hi + 1)) * outer
        outer *= sizes[k]
        buf[k::len(part)] = column
        columns.append(column)
    return bytes(buf), columns, count


def _values(const, terms, columns, count) -> str:
    """The values of every sequence of a box, as one str: the sums computed for all at
    once in 32-bit lanes of one integer, written out as UTF-32."""
    total = const * int.from_bytes(b"\x01\x00\x00\x00" * count, "little")
    lane = bytearray(4 * count)
    for k, table, w in terms:
        lane[0::4] = columns[k].translate(table)
        total += w * int.from_bytes(lane, "little")
    return total.to_bytes(4 * count, "little").decode("utf-32-le", "surrogatepass")


def _decodes(codec: str, part, value) -> bool:
    """Whether *codec* decodes every sequence *part* matches to its value."""
    if value is None:
        return False
    const, terms = value
    lo, hi = _span(terms, part)
    if const + lo < 0 or const + hi > 0x10FFFF:
        return False
    first = bytes(pos[0][0] for pos in part)  # a quick look at one sequence first
    first_value = const + sum(w * table[first[k]] for k, table, w in terms)
    try:
        if first.decode(codec) != chr(first_value):
            return False
    except UnicodeDecodeError:
        return False
    if _size(part) > MAX_BOX:
        return False
    data, columns, count = _box(part)
    try:
        return data.decode(codec) == _values(const, terms, columns, count)
    except UnicodeDecodeError:
        return False


def _split(codec: str, part, value, depth: int = 8) -> list:
    """[(sub-part, whether *codec* decodes it)] covering *part*: where it does not
    decode all of it, the first position with more than one byte is cut in two
    halves and each half looked at again, *depth* times at most.  Halves that come
    to nothing, or to more than MAX_LEFT parts it does not decode, are given up for
    *part* as a whole (the fast path tries the codec's pieces first, so they may
    overlap)."""
    if _decodes(codec, part, value):
        return [(part, True)]
    k = next((k for k, pos in enumerate(part) if sum(hi - lo + 1 for lo, hi in pos) > 1), None)
    if depth == 0 or k is None or value is None:
        return [(part, False)]
    lo, hi = _span(value[1], part)
    if value[0] + lo > 0x10FFFF:
        return [(part, False)]
    got = [b for lo, hi in part[k] for b in range(lo, hi + 1)]
    out = []
    for half in (got[:len(got) // 2], got[len(got) // 2:]):
        out += _split(codec, part[:k] + (tuple(_runs_of(half)),) + part[k + 1:], value, depth - 1)
    left = sum(not ok for _, ok in out)
    if left == len(out):
        return [(part, False)]
    if left > MAX_LEFT:
        return [(p, ok) for p, ok in out if ok] + [(part, False)]
    return out


def _merged(parts) -> list:
    """*parts* ((part, decoded)) with any two alike in all but one position, and
    both decoded or both not, made one (halves _split cut that came out the same)."""
    parts = list(parts)
    again = True
    while again:
        again = False
        for i, (p, ok) in enumerate(parts):
            for j in range(i + 1, len(parts)):
                q, ok2 = parts[j]
                differ = [k for k in range(len(p)) if p[k] != q[k]] if ok == ok2 and len(p) == len(q) else ()
                if len(differ) == 1:
                    k = differ[0]
                    both = {b for lo, hi in p[k] + q[k] for b in range(lo, hi + 1)}
                    parts[i] = (p[:k] + (tuple(_runs_of(both)),) + p[k + 1:], ok)
                    del parts[j]
                    again = True
                    break
            if again:
                break
    return parts


def _size(part) -> int:
    size = 1
    for pos in part:
        size *= sum(hi - lo + 1 for lo, hi in pos)
    return size


def _codec(valued, latin) -> tuple:
    """(codec, whether it decodes the latin bytes, [(part, whether it decodes it)]):
    the codec of CODECS that decodes the most sequences; (None, False, every part
    not) when none decodes a piece and all the latin bytes."""
    best: tuple[str | None, bool, list] = (None, False, [(p, False) for p, _ in valued])
    covered = 0
    for codec in CODECS:
        try:
            latin_too = all(bytes([b]).decode(codec) == chr(b) for b in latin)
        except UnicodeDecodeError:
            latin_too = False
        if latin and not latin_too:
            continue  # runs of it would stop at every latin byte
        got = [sub for p, value in valued for sub in _merged(_split(codec, p, value))]
        size = sum(_size(p) for p, ok in got if ok)
        if size > covered:
            best, covered = (codec, bool(latin), got), size
    return best


def _action_of(a: Automaton, pattern):
    s = 0
    for pos in pattern:
        s = a.step(s, pos[0][0])
        if s == DEAD or s >= a.n_states:
            return None
    return a.accept[s]


def _branch(a: Automaton, row, form, bytes_at, need: int, tables, same: list) -> dict:
    """One form's branch of _piece_value: told by the piece's length and its bytes at
    the first *need* positions, as many as it takes to tell it from the other forms of
    that length (*same*: the rows of this form and length)."""
    conds = []
    for k, got in enumerate(bytes_at[:need]):
        if len(got) < 256:
            name = "b" if k == 0 else f"p[{k}]"
            conds.append(" or ".join(f"0x{lo:02X} <= {name} <= 0x{hi:02X}" if lo != hi else f"{name} == 0x{lo:02X}"
                                     for lo, hi in _runs_of(got)))
    cond = " and ".join(f"({c})" for c in conds) if conds else "True"
    head = f"if n == {row.length} and {cond}:  # " + one_line(f"form {row.form} (spec line {row.line})")
    if isinstance(form, LiteralForm):
        return {"head": head, "body": [f"return 0x{row.first:X}"]}
    if isinstance(form, CompositeForm):
        sub = a.forms[form.sub]
        assert isinstance(sub, DigitsForm)  # a surrogate pair's units are a linear form
        half = len(sub.positions)
        hi = _horner(sub.positions, 0, tables)
        lo = _horner(sub.positions, half, tables)
        return {"head": head, "body": [
            f"hi = {hi} + {sub.at}",
            f"lo = {lo} + {sub.at}",
            "return 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)"]}
    body = [f"raw = {_horner(form.positions, 0, tables, form.order)}"]
    if len({r.offset for r in same}) == 1:
        body.append(f"return raw + {row.offset}")
    else:
        for r in sorted(same, key=lambda r: r.raw_lo)[:-1]:
            body.append(f"if raw <= {r.raw_hi}:")
            body.append(f"    return raw + {r.offset}")
        body.append(f"return raw + {max(same, key=lambda r: r.raw_lo).offset}")
    return {"head": head, "body": body}
