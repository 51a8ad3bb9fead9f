"""The native backend: the decoder core's automaton inside a CPython extension module.

``ext_source(a)`` is one self-contained C file, ``_native_<module>``: the C
export's ``NAME.h`` and ``NAME.c`` (``encspec export SPEC --lang c``), verbatim,
followed by the glue of ``native/templates/ext.c.j2``.  The glue carries the
automaton's tables as ``export_common.common_context`` gives them (digit
operations with their weights, code units, the actions where the data ends,
the start states, the spec's reasons) and its own scanner, ``nx_token``, the
core's ``_run`` in C; of the export it uses the token type, the counted forms
(``NAME_counted_K``) and ``NAME_wide_value``, so that it does not depend on how
the export's own scanner is written.  At import it derives its flat fast-path
table from those tables.

The extension decodes for the decoder core's ``_decode`` loop (the generated
module's ``_NATIVE`` hook, encspec/runtime/core.py): it applies replace, ignore,
surrogateescape and backslashreplace itself, exactly as CPython's handlers do,
and only while those names are CPython's handlers (the core passes "strict"
otherwise); every other problem, and every token more input could change, it
leaves to the core, which calls the handler (see the template).  Counted forms
are decoded in C too (the export's ``NAME_counted_K``, with the caller's limit,
the module's ``COUNTED_LIMIT``, as ``decode``'s optional 7th argument), and a
code point wider than 64 bits comes out of a code point list as an int.
``scan(data, pos, final, limit, start)`` is the core's ``_scan`` in C; both take
the start state a signature chose (8th and 5th argument; default 0).

A spec with mapping tables reads them where the C export lays them out (its
arrays, in the same file): a table form's state is NX_LOOK in the flat table
(the pointer's entry is one array load), and the two-byte table forms (and
three-byte ones after a fixed prefix byte, EUC-JP's 8F) get a loop of their
own, ``nx_pairs`` (``pair_plans``: which lead and trail bytes it takes is
derived from the tables at import), that decodes runs of single bytes and
lead-trail pairs without the walk; a four-byte form on a ranges table whose
positions are one run of bytes each (GB 18030's, ``quad_plans``) is read there
too, its digits' operations taken from the flat table at import.  A ranges
table is looked up through an index of buckets of pointers made at import
(``range_plans``: the run a bucket starts in, then the few runs after it)
instead of a bisection.  Their str is made in one pass (a count pass
would be a whole decode): sized from the bytes, two bytes a character, then
widened, narrowed or grown as needed.  An entry of several code points, an
unmapped pointer and every error span are the export's ``NAME_run``'s.

The extension also has the module's encoder loops (``native/templates/encode.c.j2``,
``encode.context``): ``encode_str``, ``encode_memo`` and ``encode_cps``
(a str of any kind, or code points as a list or buffer) write each character
from a memo of its bytes, filled on first sight by straight-line code per form
(rows proven to decode back) or by the module, and stop at a character neither
writes (mapping tables, counted forms, unencodable code points), which the
module's ``_encode_native`` decides; a starter of a sequence of code points
(JIS X 0213's U+304B U+309A) they decide themselves, by the core's longest match
(``encode._starters``).  ``validate`` (``native/templates/validate.c.j2``,
``simd``) is the token loop without output: a SIMD validator, a shift
DFA, the unit loop or a bitmap of pairs before it where the automaton allows.
Its module constants TABLE_BYTES and DERIVED_TABLE_BYTES are
the bytes of the tables' arrays and of those it derives at import
(``encspec bench`` prints them).

A spec read in bytes without mapping tables gets its forms as straight-line
code (``forms.form_plan``, ``native/templates/forms.c.j2``): from the
start state, range checks on each byte and the digit operations folded to
constants down to each final char, value or surrogate pair (UTF-8's are Table
3-7's rows), a sequence cut short as its maximal subpart where no accepting
state was passed, and anything else (a longest match that backs off, a counted
form, the data's end) left to the walk and nx_token from the token's first
byte; the bytes that stand for themselves (00..7F, or MUTF-8's 01..7F) are
probed 16 at a time after every other token.  Its str is made without a
counting pass: one character a byte at the narrowest kind, widened as wider
code points come, cut to size at the end (where nx_estimable, the estimate is
exact and measured faster, and stays).

A spec read in code units of 2 or 4 bytes gets a loop specialised when the
source is generated (``unit_plan``): the units that are characters on their
own, and the two-unit characters, as ranges of the unit's number, tested 16
bytes at a time with GCC's vector extensions (unit by unit elsewhere).
``generated/native/<module>.c`` holds the source of every built-in spec
(``encspec build``); setup.py compiles them as optional extensions,
``codegen/emit/native/build.py`` compiles a user's spec into a cache.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import replace

from ...automaton import DEAD, Automaton
from ...automaton.actions import Char
from ...automaton.forms import TableForm
from ...spec.diagnostics import SpecError
from ...version import __version__
from .. import c_target, description, export_common, render
from ..target import Unsupported
from . import encode as native_encode
from . import simd as native_simd
from .forms import form_plan

# The source names its own digest (SOURCE_SHA256): the SHA-256 of the source
# with this placeholder in its place, so a build can be matched to its source.
DIGEST_PLACEHOLDER = "0" * 64
_DIGEST_LINE = re.compile(r'(#define NX_SOURCE_SHA256 ")([0-9a-f]{64})(")')


def module_name(a: Automaton) -> str:
    """utf-8 → _native_utf_8: the extension next to generated/utf_8.py."""
    return "_native_" + export_common.module_name(a)


def source_digest(text: str) -> str:
    """The digest a source declares for itself (its text with the digest zeroed)."""
    return hashlib.sha256(_DIGEST_LINE.sub(lambda m: m[1] + DIGEST_PLACEHOLDER + m[3], text, count=1)
                          .encode("utf-8")).hexdigest()


def declared_digest(text: str) -> str | None:
    m = _DIGEST_LINE.search(text)
    return m[2] if m else None


# ------------------------------------------------------------ code units
# For a spec read in code units of 2 or 4 bytes, the extension gets a loop
# specialised at generation time: a unit that the automaton takes from the start
# state straight to a final plain char (UTF-16: any unit but a surrogate) is
# tested and valued as one number, and so is a two-unit token whose first unit
# leads to one state from which a second unit ends in a final char (UTF-16: a
# surrogate pair).  Both are derived from the tables here, never assumed: the
# byte order is the one in which the path's digit weights are the places of the
# unit's bytes, and the sets of units are ranges of that number.
_PATH_BUDGET = 1 << 14  # class paths explored per unit (a spec with more gets no plan)
_RANGE_LIMIT = 8  # ranges in one test (more: no plan)


class _NoPlan(Exception):
    pass


def _segments(a: Automaton, state: int, unit: int) -> list[tuple]:
    """Every way through one code unit from *state*: (end state, per position the
    class, M, per position the coefficient, constant) with acc_out = acc_in * M +
    sum(coefficient * byte) + constant (exact integers)."""
    out: list[tuple] = []

    def walk(s, k, classes, ops):
        if len(out) > _PATH_BUDGET:
            raise _NoPlan("too many paths")
        if k == unit:
            m, coefs, const = 1, [0] * unit, 0
            for j in range(unit - 1, -1, -1):  # from the last byte back: its weight is multiplied by the muls after it
                mul, sub, w = ops[j] if ops[j] is not None else (1, 0, 0)
                coefs[j] = w * m
                const -= sub * w * m
                m *= mul
            out.append((s, tuple(classes), m, tuple(coefs), const))
            return
        for c in range(a.n_classes):
            t = a.next[s][c]
            if t == DEAD or t >= a.n_states:
                continue
            walk(t, k + 1, classes + [c], ops + [a.ops[s][c]])

    walk(state, 0, [], [])
    return out


def _places(order: str, unit: int) -> list[int]:
    return [256 ** (k if order == "le" else unit - 1 - k) for k in range(unit)]


def _affine(seg, cbytes, order, unit):
    """(alpha, beta) with sum(coef * byte) + const == alpha * raw + beta for every unit
    of the path (raw: the unit's bytes as a number in *order*); alpha None when the
    path holds one unit only; None when no such pair exists."""
    _, classes, _, coefs, const = seg
    places = _places(order, unit)
    alpha = None
    beta = const
    for k, c in enumerate(classes):
        if len(cbytes[c]) == 1:
            continue
        if coefs[k] % places[k]:
            return None
        q = coefs[k] // places[k]
        if alpha is not None and q != alpha:
            return None
        alpha = q
    for k, c in enumerate(classes):
        if len(cbytes[c]) == 1:
            beta += (coefs[k] - (alpha or 0) * places[k]) * cbytes[c][0]
    return alpha, beta


def _box_ranges(box, order, unit) -> list[tuple[int, int]]:
    """The units of a box (per position a set of bytes) as ranges of their number."""
    pos = list(range(unit)) if order == "be" else list(range(unit - 1, -1, -1))  # most significant first

    def rec(ks):
        if not ks:
            return [(0, 0)]
        rest = rec(ks[1:])
        width = 256 ** (len(ks) - 1)
        runs = _merge((b, b) for b in box[ks[0]])
        if rest == [(0, width - 1)]:
            return [(lo * width, hi * width + width - 1) for lo, hi in runs]
        out = []
        for lo, hi in runs:
            for v in range(lo, hi + 1):
                out += [(v * width + x, v * width + y) for x, y in rest]
                if len(out) > 64 * _RANGE_LIMIT:
                    raise _NoPlan("too many ranges")
        return out

    return _merge(rec(pos))


def _merge(ranges):
    out = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def _join_boxes(boxes: list) -> list:
    """Boxes that differ in one position only, made one (their union is a box)."""
    boxes = list(dict.fromkeys(boxes))
    changed = True
    while changed:
        changed = False
        for k in range(len(boxes[0]) if boxes else 0):
            merged: dict = {}
            for box in boxes:
                rest = box[:k] + box[k + 1:]
                merged[rest] = merged.get(rest, frozenset()) | box[k]
            if len(merged) < len(boxes):
                boxes = [rest[:k] + (bs,) + rest[k:] for rest, bs in merged.items()]
                changed = True
    return boxes


def _groups(segs, cbytes, order, unit, key, join=False):
    """Paths with one affine value, grouped: {(alpha, key(path, beta)): ranges}.  With
    *join* (key = the code point's constant), a path whose unit is one value only
    joins a group that values it the same."""
    groups: dict = {}
    singles = []
    for seg in segs:
        got = _affine(seg, cbytes, order, unit)
        if got is None:
            continue
        alpha, beta = got
        k = key(seg, beta)
        box = tuple(frozenset(cbytes[c]) for c in seg[1])
        if alpha is None:
            if join:
                singles.append((box, k))
            continue
        groups.setdefault((alpha, k), []).append(box)
    for box, k in singles:
        (raw, _), = _box_ranges(box, order, unit)
        for (alpha, k2), boxes in groups.items():
            if alpha * raw + k2 == k:  # k is the one unit's code point
                boxes.append(box)
                break
    return {g: _merge(r for box in _join_boxes(boxes) for r in _box_ranges(box, order, unit))
            for g, boxes in groups.items()}


def _test(ranges, bits, var, vector=False) -> str:
    """A C expression: whether the unit number *var* is in *ranges* (as few tests as the
    ranges or their complement need): 1 or 0, or with *vector* a GCC vector of
    unit numbers and the result a mask (-1 or 0 per lane)."""
    top = (1 << bits) - 1
    comp, at = [], 0
    for lo, hi in ranges:
        if lo > at:
            comp.append((at, lo - 1))
        at = hi + 1
    if at <= top:
        comp.append((at, top))
    ctype = f"uint{bits}_t"

    yes, no, neg = (f"({var} == {var})", f"({var} != {var})", "~") if vector else ("1", "0", "!")

    def le(x, c):
        """x <= c, unsigned.  SSE2 compares 32-bit lanes as signed only: such lanes are
        compared with the sign bit flipped on both sides (NX_SIGNED, see the template)."""
        if vector and bits == 32:
            flipped = (c ^ 0x80000000) - (1 << 32 if c < 0x80000000 else 0)
            return f"(NX_SIGNED({x}) <= {flipped if flipped > -(1 << 31) else '-2147483647 - 1'})"
        return f"({x} <= 0x{c:X}u)"

    def inside(lo, hi):
        if lo == 0 and hi == top:
            return yes
        if lo == 0:
            return le(var, hi)
        if hi == top:
            return f"{neg}{le(var, lo - 1)}"
        if lo == hi:
            return f"({var} == 0x{lo:X}u)"
        if vector:  # lanes are unsigned: the difference wraps
            return le(f"({var} - 0x{lo:X}u)", hi - lo)
        return f"(({ctype})({var} - 0x{lo:X}u) <= 0x{hi - lo:X}u)"

    if len(comp) < len(ranges):
        if not comp:
            return yes
        return "(" + " & ".join(f"{neg}{inside(lo, hi)}" for lo, hi in comp) + ")"
    if not ranges:
        return no
    return "(" + " | ".join(inside(lo, hi) for lo, hi in ranges) + ")"


def _hex(v: int, bits: int) -> str:
    return f"UINT{bits}_C(0x{v % (1 << bits):X})"


def unit_plan(a: Automaton, state: int = 0) -> dict | None:
    """The straight-line paths of a code-unit spec from *state* (see above), for the
    template, or None (no code units, or nothing the tables make straight)."""
    unit = a.unit
    if unit not in (2, 4) or state not in a.starts:
        return None
    cbytes = a.class_bytes()
    bits = 8 * unit
    try:
        firsts = _segments(a, state, unit)
    except _NoPlan:
        return None

    def char_offset(s):
        act = a.action_at(s)
        if a.final(s) and isinstance(act, Char):
            return act.offset
        return None

    best = None
    # the byte order of the units read from this start state (a byte order mark may choose another)
    order = "le" if a.byte_orders[a.starts.index(state)] == "little" else "be"
    try:
        ones = _groups([s for s in firsts if char_offset(s[0]) is not None], cbytes, order, unit,
                       key=lambda seg, beta: beta + char_offset(seg[0]), join=True)
    except _NoPlan:
        ones = {}
    for (alpha, gamma), ranges in ones.items():
        # only what a str can hold: 0 <= alpha * raw + gamma <= 10FFFF
        clipped = []
        for lo, hi in ranges:
            if alpha == 0:
                if 0 <= gamma <= 0x10FFFF:
                    clipped.append((lo, hi))
                continue
            if alpha < 0:
                continue
            lo = max(lo, -(gamma // alpha) if gamma < 0 else 0)
            hi = min(hi, (0x10FFFF - gamma) // alpha)
            if lo <= hi:
                clipped.append((lo, hi))
        if not clipped or len(clipped) > _RANGE_LIMIT:
            continue
        cover = sum(hi - lo + 1 for lo, hi in clipped)
        if best is None or cover > best[0]:
            best = (cover, alpha, gamma, clipped)
    if best is None:
        return None
    _, alpha, gamma, ones = best
    top = max(alpha * hi + gamma for _, hi in ones)
    value_bits = 16 if top <= 0xFFFF else 32
    if alpha == 1 and gamma == 0:
        value = "r"
    else:
        value = f"(uint32_t)r * {_hex(alpha, 32)} + {_hex(gamma, 32)}"
    plan = {
        "order": order, "raw_type": f"uint{bits}_t", "value_type": f"uint{value_bits}_t",
        "one_test": _test(ones, bits, "r"), "one_value": value, "one_ranges": ones,
        # lanes of unit numbers give lanes of code points (GCC's vector extensions)
        "vector": value_bits == bits, "mask_type": f"int{bits}_t",
        "one_vtest": _test(ones, bits, "r", vector=True),
        "one_vvalue": "r" if alpha == 1 and gamma == 0 else
                      f"r * 0x{alpha % (1 << bits):X}u + 0x{gamma % (1 << bits):X}u",
        "one_text": ", ".join(f"{lo:0{2 * unit}X}..{hi:0{2 * unit}X}" for lo, hi in ones),
        "alpha": alpha, "gamma": gamma, "two": None,
    }
    # two units: a first unit into one state, a second from there to a final plain char
    mids: dict = {}
    for seg in firsts:
        s = seg[0]
        if char_offset(s) is None and not a.final(s):
            mids.setdefault(s, []).append(seg)
    best2 = None
    for m, segs in mids.items():
        try:
            g0 = _groups(segs, cbytes, order, unit, key=lambda seg, beta: beta)
            seconds = [s for s in _segments(a, m, unit) if char_offset(s[0]) is not None]
            g1 = _groups(seconds, cbytes, order, unit,
                         key=lambda seg, beta: (seg[2], beta + char_offset(seg[0])))
        except _NoPlan:
            continue
        for (a0, b0), r0 in g0.items():
            for (a1, (m1, c1)), r1 in g1.items():
                if len(r0) > _RANGE_LIMIT or len(r1) > _RANGE_LIMIT or a0 * m1 < 0 or a1 < 0:
                    continue
                k0, k1, c = a0 * m1, a1, b0 * m1 + c1
                lo = k0 * r0[0][0] + k1 * r1[0][0] + c
                hi = k0 * r0[-1][1] + k1 * r1[-1][1] + c
                if lo < 0 or hi >= 1 << 64:
                    continue
                cover = sum(y - x + 1 for x, y in r0) * sum(y - x + 1 for x, y in r1)
                if best2 is None or cover > best2[0]:
                    best2 = (cover, m, r0, r1, k0, k1, c, hi)
    if best2 is not None:
        _, m, r0, r1, k0, k1, c, hi = best2
        plan["two"] = {
            "state": m, "lead_test": _test(r0, bits, "r"), "trail_test": _test(r1, bits, "r"),
            "value": f"(uint64_t)r0 * {_hex(k0, 64)} + (uint64_t)r1 * {_hex(k1, 64)} + {_hex(c, 64)}",
            "check": hi > 0x10FFFF,  # some pairs are beyond what a str holds: tested at run time
            # no unit both begins and ends a pair: a stretch of units is cut into characters
            # without a branch (a unit ends a pair exactly when it follows a first unit)
            "disjoint": not any(x <= d and c <= y for x, y in r0 for c, d in r1),
            "lead_text": ", ".join(f"{x:0{2 * unit}X}..{y:0{2 * unit}X}" for x, y in r0),
            "trail_text": ", ".join(f"{x:0{2 * unit}X}..{y:0{2 * unit}X}" for x, y in r1),
            "k0": k0, "k1": k1, "c": c, "lead_ranges": r0, "trail_ranges": r1,
            # eight units of 16 bits as one vector, pairs included (values in 32-bit lanes)
            "vector": plan["vector"] and unit == 2 and hi <= 0x10FFFF,
            "lead_vtest": _test(r0, bits, "r", vector=True), "trail_vtest": _test(r1, bits, "r", vector=True),
            "vvalue": f"p * 0x{k0 % (1 << 32):X}u + c * 0x{k1 % (1 << 32):X}u + 0x{c % (1 << 32):X}u",
        }
    return plan


def pair_plans(a: Automaton, ctx: dict) -> list[dict]:
    """The table forms the extension's loop for two-byte tokens reads (nx_pairs): the
    first of two bytes on an index table, and those of three on an index table whose
    first byte is fixed (EUC-JP's 8F): which lead and trail bytes they take is
    derived from the tables at import."""
    if a.unit != 1:
        return []
    plans: list[dict] = []
    prefixes = set()
    for f in a.forms.values():
        if not isinstance(f, TableForm) or a.tables[f.table].ranges:
            continue
        t = ctx["tables"][f.table]
        plan = {"id": len(plans), "table": f.table, "name": t["name"], "base": t["base"], "count": t["count"],
                "several": t["several"], "form": f.name, "prefix": None}
        if f.length == 2 and not any(p["prefix"] is None for p in plans):
            plans.append(plan)
        elif f.length == 3 and len(f.positions[0]) == 1 and f.positions[0][0][0] == f.positions[0][0][1] \
                and f.positions[0][0][0] not in prefixes and (f.order is None or list(f.order) == [0, 1, 2]):
            plan["prefix"] = f.positions[0][0][0]
            prefixes.add(plan["prefix"])
            plans.append(plan)
    return plans


_BUCKETS = 8192  # the most buckets of a ranges table's index (nx_rb), 2 bytes each


def range_plans(ctx: dict) -> list[dict]:
    """Per ranges table, its index for the extension's lookup (nx_range): pointers cut
    into buckets of 2 ** shift, each bucket the last run that starts at or before it
    (made at import); the overrides' span, looked up first."""
    plans = []
    for t in ctx["tables"]:
        if not t["ranges"] or not t["runs"]:
            continue
        pointers = [o["pointer"] for o in t["overrides"]]
        top = max(t["lasts"] + pointers)
        shift = 0
        while (top >> shift) + 1 > _BUCKETS:
            shift += 1
        plans.append({"table": t["index"], "runs": t["runs"], "top": top, "shift": shift,
                      "index_type": "uint16_t" if t["runs"] <= 0xFFFF else "uint32_t",
                      "buckets": (top >> shift) + 1,
                      "over": (min(pointers), max(pointers), len(pointers)) if pointers else None})
    return plans


def quad_plans(a: Automaton) -> list[dict]:
    """The four-byte table forms on a ranges table whose every position is one run of
    bytes (GB 18030's 81..FE 30..39 81..FE 30..39): nx_pairs reads them itself, the
    pointer being the four digits in mixed radix; that the automaton reads them so
    (the same states, digit operations and table) is checked at import."""
    if a.unit != 1:
        return []
    plans: list[dict] = []
    for f in a.forms.values():
        if not isinstance(f, TableForm) or not a.tables[f.table].ranges or f.length != 4:
            continue
        if any(len(runs) != 1 for runs in f.positions) or (f.order is not None and list(f.order) != [0, 1, 2, 3]):
            continue
        lo = [runs[0][0] for runs in f.positions]
        hi = [runs[0][1] for runs in f.positions]
        plans.append({"id": len(plans), "table": f.table, "form": f.name, "lo": lo, "hi": hi,
                      "radix": [h - low + 1 for low, h in zip(lo, hi)]})
    return plans[:1]


def _modal_encoder_resumes(a: Automaton) -> bool:
    """Whether the module can take over the export's modal encoder where it stops at an
    unencodable code point (encode_modes.c.j2): the shift it wrote before it (into the
    mode `unencodable -> MODE` names) is one the module's _before_unencodable, starting
    again from there, would not repeat (that mode's own is itself or none)."""
    to = description.mode_choice(a).unencodable
    return all(k < 0 or to[k] in (-1, k) for k in to)


def digit_run_context(a: Automaton) -> description.DigitRunData | None:
    """The run of digits the C reads (native/templates/ext.c.j2, ``drun``): the exports'
    shared description of it (description.digit_run), or None without one.  The C
    decodes a run the module's _scan_digits would make a plain character token of and
    hands any other back to the module's _step, as it does a shift."""
    run = a.digit_run
    if run is None:
        return None
    if a.modes:  # a mode's run loop would read the opening byte before the run
        raise Unsupported(a, "native", "a run of digits in a spec with modes is not in this target yet: "
                                       "the Python module has it")
    if run.bits + run.unit_bits > 56:  # the bits not yet a unit stay in a uint64_t
        raise Unsupported(a, "native", f"a run of digits of {run.bits}-bit digits and {run.unit_bits}-bit "
                                       "units is beyond the native decoder's 56 bits")
    return description.digit_run(a)


def ext_source(a: Automaton) -> str:
    """The extension's C source (deterministic).  Raises SpecError where the C export
    refuses the spec (a counted form it cannot decode without big integers).

    A spec with modes is taken (the C export refuses it): its decode loop takes a
    token that sets the mode itself (a shift, a character's ``-> MODE``: the actions'
    ``then``; ``modal``: each mode's start and twin), carries the start state from
    token to token and returns it with where it stopped, so that a shift is no round
    trip through the module; each mode gets a run of its one-byte characters, table
    pairs and shifts, made at import from the flat table (its feed returns the
    state too).  Its validator still stops at such a token (the module's _step
    takes it).  The plans made here from start state 0
    without the actions' modes (the SIMD and DFA validators, the unit and form
    plans) are left out for it; those made at import from the flat table (pairs,
    leads, the validator's byte pairs) see such a token's state as NX_STOP.  Its
    encoder is the C export's modal engine, included with the decoder, which
    ``native/templates/encode_modes.c.j2`` drives (``encode_modes``; the memo loops
    are off, keyed by code point alone).

    A spec with a run of digits (UTF-7) is taken too (digit_run_context): its loops
    decode a plain run beside the automaton and hand any other to the module's _step;
    the plans made from the automaton alone are left out for it as for modes."""
    modal = bool(a.modes)
    drun = digit_run_context(a)
    plain = modal or drun is not None  # no plan made from the automaton alone: it skips a run's tokens
    a = replace(a, permutation=None)  # the core hands it bytes already through the inverse permutation
    modal_encode = modal and _modal_encoder_resumes(a)
    # the decoder's source (the extension encodes on its own; a run of digits is read beside it,
    # drun), and for a spec with modes the export's encoder too: encode_modes.c.j2 drives its
    # engine (description.mode_choice)
    files = c_target.files(replace(a, digit_run=None), vectors="", encoder=modal_encode, encode_vectors="")
    ctx = export_common.common_context(a)
    ctx.update(export_common.width_context(a))
    mod = ctx["mod"]
    include = f"#include <encspec/{mod}.h>\n"
    body = files[f"{mod}.c"]
    assert include in body
    for op in ctx["ops"]:
        if max(op["radix"], op["weight"]) >> 64:
            raise SpecError(f"the native target needs digit operations below 2**64 (acc * {op['radix']} + "
                            f"digit * {op['weight']})", None, a.spec_file)
    states = a.n_states + len(a.extensions)
    pairs = [] if drun is not None else pair_plans(a, ctx)
    ctx.update(
        nx_state_type="uint16_t" if states < 0xFFFF else "uint32_t",
        nx_dead=0xFFFF if states < 0xFFFF else 0xFFFFFFFF,
        nx_op_type="uint8_t" if len(ctx["ops"]) <= 256 else "uint16_t",
        uplan=None if plain else unit_plan(a),
        fplan=None if plain else form_plan(a),
        pairs=pairs,
        drun=drun,
        quads=quad_plans(a) if any(p["prefix"] is None for p in pairs) else [],  # nx_pairs reads them
        rplans=range_plans(ctx),
        ext=module_name(a),
        generator=f"encspec {__version__}",
        export_h=files[f"include/encspec/{mod}.h"].rstrip("\n"),
        export_c=body.replace(include, f"/* {mod}.h is above */\n", 1).rstrip("\n"),
        has_plans=bool(a.extensions),
        modal=[{"name": m.name, "start": m.start, "twin": -1 if m.after_shift is None else m.after_shift}
               for m in a.modes] or None,
        modal_encode=modal_encode,
        digest=DIGEST_PLACEHOLDER,
    )
    ctx.update({"simd": None, "dfa": None} if plain else native_simd.context(a))  # the validator's plans
    # (native/templates/validate.c.j2)
    ctx.update(native_encode.context(a, ctx))  # the encoder's proven rows (native/templates/encode.c.j2)
    text = render("native/ext.c.j2", **ctx)
    return text.replace(f'#define NX_SOURCE_SHA256 "{DIGEST_PLACEHOLDER}"',
                        f'#define NX_SOURCE_SHA256 "{source_digest(text)}"', 1)
