"""An automaton's tables as the decoder core reads them, and the core bound to them.

:func:`values` is the one derivation of the table values (Python objects) from
an automaton: the Python backend writes them out as source (``repr`` plus
comments, :mod:`encspec.emit.python`), and :func:`bind` runs the core text
(:mod:`encspec.runtime.core`) over them as they are, for the analyses and the
vectors' expected tokens.  Code in a table (a counted form's counts and range
bounds, from the one expression converter :mod:`encspec.spec.expressions`) is
:class:`Source`, which both write and evaluate the same way.
"""
from __future__ import annotations

import types
from collections import OrderedDict
from dataclasses import dataclass, replace
from pathlib import Path

from ..automaton.actions import Error, Lookup, Pair, Reserved, Shift, Value
from ..automaton.forms import CompositeForm, LiteralForm
from ..automaton.mapping import NONE
from ..spec import expr as _expr
from ..spec.expressions import source as _source
from . import core as _core

MARKER = "# ---- encspec core: copied verbatim into every generated module ----"


# ----------------------------------------------------------------- the core
def _core_source() -> str:
    return Path(_core.__file__).read_text("utf-8")


def core_text() -> str:
    """The core's text after the marker line: what every generated module ends with."""
    head, sep, tail = _core_source().partition(MARKER + "\n")
    if not sep:
        raise RuntimeError(f"{_core.__file__}: the marker line is missing")
    return tail


_COMPILED = None


def _compiled_core():
    """The core text compiled once, with core.py's own file name and line numbers."""
    global _COMPILED
    if _COMPILED is None:
        head = _core_source().partition(MARKER + "\n")[0]
        lines = head.count("\n") + 1
        _COMPILED = compile("\n" * lines + core_text(), _core.__file__, "exec")
    return _COMPILED


# ------------------------------------------------------------- table values
class Source(str):
    """Python source in a table (an expression's lambda): repr() is the text itself,
    so a table containing it is written as code; :func:`bind` evaluates it."""

    def __repr__(self) -> str:
        return str(self)


def _py(expr) -> str:
    return _source(expr, "python-checked")


def expression(expr) -> Source:
    """``lambda e: ...``: the core calls it with the environment of earlier items, in
    its checked arithmetic (``_x_add`` ...: exact, within +-2**62, else OverflowError)."""
    return Source(f"lambda e: {_py(expr)}")


def count_solver(expr) -> Source:
    """A field's count ``var + c``: called with the environment, its value; called
    with (None, digits), the environment {var: digits - c} an encoder needs."""
    solved = _expr.solve_unit(expr)
    if solved is None:
        return Source(f"lambda e, digits=None: {_py(expr)}")
    name, c = solved
    return Source(f"lambda e, digits=None: ({{{name!r}: digits - ({c})}} if e is None else {_py(expr)})")


# Reads of the automaton's actions, rows, forms, extensions and profiles.
def action_value(act, modes: tuple[str, ...] = ()) -> tuple:
    """("char", offset) | ("value", cp) | ("pair", split, offset) | ("error", reason) | ("reserved",)
    | ("shift", reason or None, mode index)."""
    # a mode's part bound alone (for its rows' bytes) knows no modes: its shifts lead nowhere (-1)
    if isinstance(act, Shift):
        return ("shift", act.reason, modes.index(act.mode) if act.mode in modes else -1)
    then = getattr(act, "then", None)
    if then is not None:  # a character, then a mode: its index after the action's own fields
        return action_value(replace(act, then=None)) + (modes.index(then) if then in modes else -1,)
    if isinstance(act, Reserved):
        return ("reserved",)
    if isinstance(act, Error):
        return ("error", act.reason)
    if isinstance(act, Value):
        return ("value", act.value)
    if isinstance(act, Pair):
        return ("pair", act.split, act.offset)
    if isinstance(act, Lookup):
        return ("lookup", act.table)
    return ("char", act.offset)


def table_value(t) -> tuple:
    """(ranges, base, values, none, overrides, decode-only, starts, firsts, lasts): an
    index's code points as a str, one character per pointer from base, *none* (a
    character no entry uses) where there is no entry."""
    if t.ranges:
        return (True, 0, "", "", dict(t.overrides), tuple(t.decode_only), tuple(t.starts), tuple(t.firsts), tuple(t.lasts))
    used = set(t.values)
    none = next(cp for cp in range(0x110000) if cp not in used)
    text = "".join(chr(none if v == NONE else v) for v in t.values)
    return (False, t.base, text, chr(none), dict(t.overrides), tuple(t.decode_only), (), (), ())


def _positions(positions) -> tuple:
    return tuple(tuple(tuple(r) for r in runs) for runs in positions)


def row_value(a, row) -> tuple:
    """(first, last, kind, data): "digits" (offset, positions, order), "literal" bytes, "pair" (at, positions)."""
    form = a.forms[row.form]
    if isinstance(form, LiteralForm):
        return (row.first, row.last, "literal", bytes(form.bytes))
    if isinstance(form, CompositeForm):
        sub = a.forms[form.sub]
        return (row.first, row.last, "pair", (sub.at, _positions(sub.positions)))
    return (row.first, row.last, "digits", (row.offset, _positions(form.positions), form.order))


def extension_value(ext) -> dict:
    """A counted form: its prefix bytes; its free counts (variable, byte runs); its
    field (variable, runs, radix, count, shortest); its value digits (runs, count,
    shortest); the range as bit lengths (``shift`` bits a digit, ``lo_exp``,
    ``hi_exp``, ``min_exp``: see :class:`encspec.automaton.counted.Extension`);
    min and offset."""
    def runs(it):
        return tuple(tuple(r) for r in it.runs)

    frees = tuple((it.binds, runs(it)) for it in ext.items if it.role == "free")
    f, v = ext.field_item, ext.value_item
    return {"prefix": bytes(ext.prefix_bytes), "frees": frees,
            "field": (f.field, runs(f), f.radix, count_solver(f.count), f.shortest),
            "value": (runs(v), expression(v.count), v.shortest),
            "shift": ext.shift, "lo_exp": None if ext.lo_exp is None else expression(ext.lo_exp),
            "hi_exp": expression(ext.hi_exp), "min_exp": ext.min_exp,
            "min": ext.min, "offset": ext.offset}


def profile_value(p) -> tuple:
    """(name, rules): each rule (severity, kind, code point ranges, message)."""
    return (p.name, tuple((r.severity, r.kind, tuple(tuple(x) for x in r.ranges), r.message) for r in p.rules))


def values(a) -> dict:
    """The tables of automaton *a*, by module-level name, in the order a module lists them."""
    return {
        "NAME": a.name,
        "ALIASES": tuple(a.aliases),
        "SPEC_FILE": a.spec_file,
        "SPEC_SHA256": a.spec_sha256,
        "SIGNATURE": bytes(a.signature),
        "RESERVED_LEADS": tuple(a.reserved),
        "MAX_CODE_POINT": a.max_code_point,
        "PAIR_ON_ENCODE": bool(a.pair_on_encode),
        "_CLASS_RUNS": tuple(a.class_runs()),
        "_N_CLASSES": a.n_classes,
        "_N_STATES": a.n_states,
        "_NEXT": tuple(tuple(row) for row in a.next),
        "_OPS": tuple(tuple(None if op is None else tuple(op) for op in row) for row in a.ops),
        "_ACCEPT": tuple(a.accept),
        "_FINAL": tuple(a.final(s) for s in range(a.n_states)),
        "_ACTIONS": tuple(action_value(act, tuple(m.name for m in a.modes)) for act in a.actions),
        "_ROWS": tuple(row_value(a, r) for r in a.encoding_rows()),
        "_EXTENSIONS": tuple(extension_value(e) for e in a.extensions),
        "_UNIT": a.unit,
        "_AT_END": tuple(a.at_end),
        "_STARTS": tuple(a.starts),
        "SIGNATURES": tuple((bytes(sig), k) for sig, k in a.signatures),
        # with byte order marks, errors name the order they were found in (utf-16-be)
        "_ERROR_NAMES": {s: f"{a.name}-{o[0]}e" for s, o in zip(a.starts, a.byte_orders)} if len(a.starts) > 1 else {},
        "_REASONS": (a.reasons.invalid_start, a.reasons.invalid_continuation, a.reasons.unexpected_end,
                     a.reasons.truncated_unit, a.reasons.unmapped),
        "_UNENCODABLE": a.reasons.unencodable,
        "_UNDECODABLE": a.undecodable,
        "_SPAN": ("maximal-subpart", "one-unit", "through-failing-byte").index(a.error_span),
        "_RESTORE": bytes(1 if any(lo <= b <= hi for lo, hi in a.restore) else 0 for b in range(256))
        if a.restore else b"",
        "_PERMUTATION": a.permutation,
        "_TABLES": tuple(table_value(t) for t in a.tables),
        "_ENCODE_ONLY": {cp: None if b is None else bytes(b) for cp, b in a.encode_only},
        "_TABLE_FORMS": tuple((f.table, _positions(f.positions), f.order) for f in a.table_forms()),
        "PROFILES": dict(profile_value(p) for p in a.profiles),
        # only where there are sequences: the core reads an absent one as {} (a module stays as it was)
        **({"_SEQUENCES": sequence_value(a)} if a.sequences else {}),
        **(mode_values(a) if a.modes else {}),
        **({"_DIGITS": digit_value(a)} if a.digit_run is not None else {}),
    }


def digit_value(a) -> tuple:
    """``_DIGITS`` (see the core): the run's opening byte, each byte's digit value (FF: not a
    digit), bits per digit and per unit, the end byte (-1: none), whether surrogate pairs
    combine, the alphabet in value order, the encoder's direct code point runs, the reasons."""
    r = a.digit_run
    values = bytearray(b"\xff" * 256)
    for v, b in enumerate(r.digits):
        values[b] = v
    return (r.opener, bytes(values), r.bits, r.unit_bits, -1 if r.end is None else r.end, r.pairs, bytes(r.digits),
            tuple(r.direct), tuple(a.digit_reasons))


def mode_values(a) -> dict:
    """``_MODES``, ``_MODE_ENCODERS``, ``_MODE_ORDER`` and ``_STICKY`` (see the core)."""
    def encoder(m) -> tuple:
        rows = tuple(row_value(m.part, r) for r in m.part.encoding_rows() if r.form not in m.leaving)
        return (rows, tuple(r[0] for r in rows),
                tuple((f.table, _positions(f.positions), f.order) for f in m.part.table_forms()
                      if f.name not in m.leaving),
                {cp: None if b is None else bytes(b) for cp, b in m.part.encode_only}, m.shifts,
                -1 if m.unencodable is None else m.unencodable, sequence_value(m.part))
    return {
        "_MODES": tuple((m.start, -1 if m.after_shift is None else m.after_shift) for m in a.modes),
        "_MODE_ENCODERS": tuple(encoder(m) for m in a.modes),
        "_MODE_ORDER": tuple(a.encode_modes),
        "_STICKY": a.sticky,
        "_CHEAPEST": a.cheapest,
        "_MODE_ENDS": tuple(a.encode_end),
    }


def sequence_value(a) -> dict[int, tuple[tuple[tuple[int, ...], bytes], ...]]:
    """``_SEQUENCES``: first code point -> ((the code points after it, bytes), ...), the
    longest first (then in code point order)."""
    out: dict[int, list[tuple[tuple[int, ...], bytes]]] = {}
    for cps, data in sorted(a.sequences, key=lambda s: (s[0][0], -len(s[0]), s[0])):
        out.setdefault(cps[0], []).append((tuple(cps[1:]), bytes(data)))
    return {first: tuple(alts) for first, alts in out.items()}


def sequences(a) -> tuple[tuple[tuple[int, ...], bytes], ...]:
    """Every sequence of code points *a*'s encoder writes as one, with its bytes (as
    written: after ``bytes through``), in code point order: for the analyses, the
    native encoder's generator and the exports."""
    if a.permutation is None:
        return tuple((tuple(cps), bytes(data)) for cps, data in a.sequences)
    return tuple((tuple(cps), bytes(a.permutation[b] for b in data)) for cps, data in a.sequences)


# -------------------------------------------------------------------- bind
def _materialise(value, ns):
    """*value* with its Source evaluated in *ns*, the module the core runs in (whose
    checked helpers the lambdas call)."""
    if isinstance(value, Source):
        return eval(str(value), ns)  # noqa: S307 - our own expression source, see expression()
    if isinstance(value, tuple):
        return tuple(_materialise(v, ns) for v in value)
    if isinstance(value, list):
        return [_materialise(v, ns) for v in value]
    if isinstance(value, dict):
        return {k: _materialise(v, ns) for k, v in value.items()}
    return value


def _no_piece(p):
    raise ValueError(p)


_BOUND: OrderedDict[int, tuple] = OrderedDict()


def bind(a) -> types.ModuleType:
    """The core running over *a*'s tables: a module with the generated module's API
    (decode, encode, tokens, _scan, _tokens, ...), without the fast path or the
    native hook.  Cached per automaton."""
    got = _BOUND.get(id(a))
    if got is not None and got[0] is a:
        _BOUND.move_to_end(id(a))
        return got[1]
    module = types.ModuleType(f"encspec.bound.{a.name}")
    ns = module.__dict__
    for name, value in values(a).items():
        ns[name] = _materialise(value, ns)
    ns.update(_LATIN_CLASS=None, _CODEC=None, _CODEC_LATIN=False, _CODEC_PIECES=(), _PIECES=(),
              _piece_value=_no_piece, _NATIVE=None, _CHARMAP=None)
    exec(_compiled_core(), ns)
    _BOUND[id(a)] = (a, module)  # the automaton is kept alive, so its id is not reused
    if len(_BOUND) > 64:
        _BOUND.popitem(last=False)
    return module


# ------------------------------------------------ the scanner's tables, by name
@dataclass(frozen=True)
class ScannerTables:
    """The tables the core's scanner (``_run``) reads, as the core reads them (``_CLASS``
    filled out by byte): for code that proves things about the core's walk over byte
    ranges, the native encoder's generator, without reading the core's private names."""

    classes: bytes
    next: tuple
    ops: tuple
    accept: tuple
    final: tuple
    actions: tuple
    at_end: tuple
    n_states: int
    unit: int


def scanner_tables(a) -> ScannerTables:
    """The core's scanner tables over *a*."""
    c = bind(a)
    return ScannerTables(c._CLASS, c._NEXT, c._OPS, c._ACCEPT, c._FINAL, c._ACTIONS, c._AT_END,
                         c._N_STATES, c._UNIT)


# ------------------------------------------ the reference tokenizer's calls
def scan(a, data: bytes, pos: int, final: bool = True):
    """The token at data[pos:] (kind, start, end, value, reason), or None if more data
    could change it (final=False)."""
    return bind(a)._scan(data, pos, final)


def tokens(a, data: bytes, start: int | None = None):
    """Every token of *data* (a whole document): signature, chars, errors, reserved runs (an
    error's value None, as the module's tokens() gives it: a run of digits' error holds the
    code points the run read before it there); from automaton state *start* where given (a
    mode's start: no signature then)."""
    core = bind(a)
    got = core._tokens(bytes(data)) if start is None else core._tokens(bytes(data), 0, True, start << 1)
    return [t if t[0] != "error" or t[3] is None else (*t[:3], None, *t[4:]) for t in got]


def start_after(a, data: bytes, start: int, end: int | None = None) -> int | None:
    """The start state of the token at *end* (default: the data's end), data[:end] read
    as whole tokens from state *start* (a mode's start) with *data* what follows: a
    shift's mode, or a mode-ending character's.  None where a token reaches past *end*."""
    core = bind(a)
    pos, state = 0, start << 1
    data = bytes(data)
    end = len(data) if end is None else end
    while pos < end:
        tok, state = core._step(data, pos, state, True)
        pos = tok[2]
    return state >> 1 if pos == end else None


def value_of(action, acc: int) -> int:
    """The code point an accepting state's action gives the raw value *acc*."""
    return _core._token(action_value(action), 0, 0, acc)[3]


# ------------------------------------------------ the core's encoder, for the analyses
# One encoder: the analyses, the vectors, the emitters' proofs and the tests ask the
# core bound to the automaton, never a second copy of the algorithm.
def encoded(a, cp: int) -> bytes | None:
    """The bytes the encoder writes for code point *cp* at the start of a text (None:
    it has none): an encoder-only entry, else the row or counted form holding it,
    else the first table form with a pointer for it, kept only if it decodes back."""
    core = bind(a)
    return core._encode_in(core._ENCODE_START, cp)[0]


def row_bytes(a, row, cp: int) -> bytes:
    """The bytes row *row* of ``a.rows`` gives *cp*, one of its code points: any row,
    also one the encoder does not choose (a longer, redundant sequence; an `end` form)."""
    return bind(a)._row_bytes(row_value(a, row), cp)


def digits_bytes(positions, raw: int, order=None) -> bytes:
    """The bytes spelling raw value *raw* in the mixed radix of *positions* (digit
    alphabets, in byte order), most significant first in *order* (None: byte order)."""
    return _core._encode_digits(_positions(positions), raw, None if order is None else tuple(order))


def _bound_extension(a, ext) -> dict:
    k = next(i for i, e in enumerate(a.extensions) if e is ext or e == ext)
    return bind(a)._EXTENSIONS[k]


def counted_bytes(a, ext, cp: int) -> bytes | None:
    """The shortest bytes of *cp* in counted form *ext* (one of ``a.extensions``), or None."""
    return bind(a)._encode_counted(_bound_extension(a, ext), cp)


def counted_levels(a, ext):
    """Yield (env, field digits, first code point, last code point) of each length of
    counted form *ext*, for field values 0, 1, 2, …: endless (take what you need)."""
    core, bound = bind(a), _bound_extension(a, ext)
    f = 0
    while True:
        got = core._counted_level(bound, f)
        if got is not None and got[2] <= got[3]:
            env, digits, low, high = got
            yield env, digits, (1 << low - 1 if low else 0) + ext.offset, (1 << high) - 1 + ext.offset
        f += 1


def level_bytes(a, ext, env: dict, digits, value: int) -> bytes | None:
    """The bytes of raw *value* at the length of a level of :func:`counted_levels`
    (also a value outside its range: the vectors' overlong and too-long cases); None
    for a negative value, which no digits spell."""
    if value < 0:
        return None
    return bind(a)._counted_bytes(_bound_extension(a, ext), env, digits, value)


def table_pointer(a, k: int, cp: int) -> int | None:
    """The pointer the encoder writes for *cp* from mapping table *k* (None: it has none)."""
    return bind(a)._table_pointer(k, cp)


def table_inverse(a, k: int) -> dict[int, int]:
    """Index table *k*'s code point -> the pointer the encoder writes ({} for a ranges table)."""
    return {} if a.tables[k].ranges else dict(bind(a)._table_inverse(k))


def pair_reads_as_one(a) -> bool:
    """Whether a lead surrogate's bytes followed by a trail's read back as one token
    (the core's PAIR_READS_AS_ONE: WTF-8, WTF-16): encoders never write them in a row."""
    return bool(bind(a).PAIR_READS_AS_ONE)
