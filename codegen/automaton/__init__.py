"""Stage 2: model → automaton, the plain data every emitter and analysis reads.

The automaton is a minimal DFA over byte classes whose transitions carry a digit
operation (``acc = acc * radix + byte - sub``) and whose accepting states carry
an action (which form, how the code point follows from ``acc``).  Longest match
with the last accepting state wins; a run that dies before accepting is an error
covering exactly the bytes read (Unicode's maximal subpart).  What a DFA cannot
hold — counted forms of unbounded length, signatures — is kept beside it as
data: ``extensions`` and ``signature``.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from ..spec.diagnostics import Loc, SpecError
from ..spec.model import DigitRun, RangeSet, Spec, paused_gc
from . import dfa as _dfa
from .actions import Action, Reserved, named
from .counted import Extension, extension_data
from .forms import CompositeForm, CountedForm, DigitsForm, Form, LiteralForm, Profile, ProfileRule, TableForm
from .layout import Segment, form_patterns, positions, rules, segments, significance
from .mapping import MappingTable
from .mapping import build as build_table
from .modes import mode_spec, shift_paths
from .overrides import cut_rows, first_inner_char
from .sequences import writable

DEAD = _dfa.DEAD


@dataclass(frozen=True)
class Reasons:
    """What the decoder says of an error no ill-formed pattern names (CPython's words by default)."""

    invalid_start: str = "invalid start byte"  # the first unit cannot start a sequence
    invalid_continuation: str = "invalid continuation byte"  # a later unit cannot continue it
    unexpected_end: str = "unexpected end of data"  # the data ends inside a sequence
    truncated_unit: str = "truncated data"  # fewer bytes than a code unit are left
    unmapped: str = "no code point for this pointer"  # a table form's pointer has no entry
    unencodable: str | None = None  # the encoder's reason (None: CPython's utf-8 words)


@dataclass(frozen=True)
class Mode:
    """One mode: where its tokens start, and what its encoder writes.

    ``part`` is the mode's own automaton (its states numbered from 0, its rows,
    table forms and encoder entries): the encoder proposes from it and checks the
    bytes from ``start`` in the whole table.  ``shifts[k]``: the shortest bytes
    of shift sequences from this mode into mode k (b"" for itself, None where no
    shifts lead there); ``leaving``: its forms whose characters end the mode (`->`),
    which the encoder does not write (it would have to follow the decoder there)."""

    name: str
    start: int
    after_shift: int | None  # the start of its twin (entered by a shift), or None
    part: Automaton
    shifts: tuple[bytes | None, ...]
    leaving: tuple[str, ...] = ()
    unencodable: int | None = None  # the mode the encoder goes to before a code point it cannot write


@dataclass(frozen=True)
class Automaton:
    """Everything a backend needs, as immutable typed values read by attribute."""

    name: str
    title: str
    aliases: tuple[str, ...]
    source: str
    spec_file: str
    spec_sha256: str
    code_space: tuple[int, int | None]
    holes: tuple[tuple[int, int], ...]
    skips: tuple[tuple[int, int], ...]
    signature: bytes
    reserved: tuple[int, ...]
    classes: tuple[int, ...]          # byte -> class
    next: tuple[tuple[int, ...], ...]  # state, class -> state | DEAD | n_states + extension
    ops: tuple[tuple[tuple[int, int, int] | None, ...], ...]  # state, class -> (radix, sub, weight)
    accept: tuple[int | None, ...]  # state -> index into actions
    state_lines: tuple[tuple[int, ...], ...]  # state -> spec lines of the forms passing through it
    actions: tuple[Action, ...]
    rows: tuple[Segment, ...]          # code point rows, in code point order
    forms: Mapping[str, Form]          # form name -> how its code points become bytes (read-only)
    extensions: tuple[Extension, ...]  # counted forms, entered at n_states + index
    claims: tuple[str, ...]
    pair_on_encode: bool = False  # encoders join lead + trail surrogate code points (WTF-8 6.1)
    profiles: tuple[Profile, ...] = ()  # document profiles (encspec lint)
    row_patterns: tuple = ()  # per row: its byte patterns, each a tuple of positions of (lo, hi) runs
    unit: int = 1  # bytes per code unit: errors and the data's end are counted in whole units
    at_end: tuple[int | None, ...] = ()  # state -> the action where the data ends in it (None: the usual)
    starts: tuple[int, ...] = (0,)  # a start state per byte order: the spec's own first
    byte_orders: tuple[str, ...] = ("big",)  # the byte order of each start's units
    signatures: tuple[tuple[bytes, int], ...] = ()  # (bytes, index into starts): the first is written
    reasons: Reasons = Reasons()
    tables: tuple[MappingTable, ...] = ()  # the mapping tables table forms look their pointers up in
    encode_only: tuple[tuple[int, bytes | None], ...] = ()  # (code point, bytes or None: refused), first
    error_span: str = "maximal-subpart"  # how far an error reaches: see spec.model.ERROR_SPANS
    restore: tuple[tuple[int, int], ...] = ()  # bytes an error never takes after its first (through-failing-byte)
    # the real byte of each intermediate byte the automaton reads (``bytes through``, UTF-EBCDIC):
    # decoders read data through its inverse, encoders write through it; offsets are the same
    permutation: bytes | None = None
    undecodable: bool = False  # the decoder reads no form: `undecodable` (any input is one error to its end)
    # the sequences of code points the encoder writes as one (code points, bytes), in code point order
    sequences: tuple[tuple[tuple[int, ...], bytes], ...] = ()
    # modes (ISO-2022, HZ): each a start state with its own encoder (see modes.py); the first is
    # where data starts; the encoder's modes by preference (indices), and whether it stays in one
    modes: tuple[Mode, ...] = ()
    encode_modes: tuple[int, ...] = ()
    sticky: bool = False
    cheapest: bool = False  # it takes the mode its shifts reach with the fewest bytes
    encode_end: tuple[int, ...] = ()  # the modes a text may end in (the first encode mode's by default)
    # units assembled from digits (`run`, UTF-7's base64), read by the core beside the automaton,
    # and its three reasons: a partial unit, non-zero padding bits, a run the data's end cuts
    digit_run: DigitRun | None = None
    digit_reasons: tuple[str, ...] = ()

    def end_action(self, s: int) -> Action | None:
        """The action a token takes where the data ends in state *s* (None: the usual rules)."""
        if self.at_end and 0 <= s < self.n_states and (k := self.at_end[s]) is not None:
            return self.actions[k]
        return None

    def action_at(self, s: int) -> Action | None:
        """The action state *s* accepts with (None: not accepting, or not a state)."""
        if 0 <= s < self.n_states and (k := self.accept[s]) is not None:
            return self.actions[k]
        return None

    def accepts_char(self, s: int) -> bool:
        """Whether a sequence ending in state *s* is a character (not an error or reserved run)."""
        act = self.action_at(s)
        return act is not None and act.kind == "char"

    def digit_forms(self) -> list[tuple[DigitsForm, list[Segment]]]:
        """Each linear form that has rows, with its rows."""
        out = []
        for f in self.forms.values():
            rows = [r for r in self.rows if r.form == f.name]
            if isinstance(f, DigitsForm) and rows:
                out.append((f, rows))
        return out

    def final(self, s: int) -> bool:
        """Accepting with no way on: a token that ends here ends at once."""
        return self.accept[s] is not None and all(t == DEAD for t in self.next[s])

    @property
    def n_states(self) -> int:
        return len(self.next)

    @property
    def n_classes(self) -> int:
        return max(self.classes) + 1

    @property
    def max_length(self) -> int | None:
        if self.extensions:
            return None
        return max([r.length for r in self.rows] + [f.length for f in self.table_forms()])

    @property
    def max_code_point(self) -> int | None:
        if self.extensions:
            return None
        tabled = {f.table for f in self.table_forms()}
        return max([r.last for r in self.rows] + [self.tables[k].max_code_point for k in tabled])

    def class_bytes(self) -> list[list[int]]:
        """The bytes of each class, in byte order."""
        out: list[list[int]] = [[] for _ in range(self.n_classes)]
        for b, c in enumerate(self.classes):
            out[c].append(b)
        return out

    def class_runs(self) -> list[tuple[int, int, int]]:
        """(first byte, last byte, class) for each run of equal classes."""
        runs: list[tuple[int, int, int]] = []
        for b, c in enumerate(self.classes):
            if runs and runs[-1][2] == c and runs[-1][1] == b - 1:
                runs[-1] = (runs[-1][0], b, c)
            else:
                runs.append((b, b, c))
        return runs

    def step(self, state: int, byte: int) -> int:
        return self.next[state][self.classes[byte]]

    def encoding_rows(self) -> tuple[Segment, ...]:
        """The rows an encoder chooses from, disjoint and in code point order: where rows
        overlap (a form that also accepts redundant, longer sequences, as protobuf's
        varints do), the shortest sequence wins, then the form written first.  An `end`
        form's rows are never among them: its sequences count only where the data
        ends, which an encoder handed text piece by piece cannot know (docs: "Nothing
        held back"), so encoders write only what decodes anywhere."""
        got = self.__dict__.get("_encoding_rows")
        if got is None:
            taken = RangeSet()
            out = []
            anywhere = (r for r in self.rows if not r.at_end)
            for row in sorted(anywhere, key=lambda r: r.length):  # stable: spec order within a length
                for lo, hi in taken.cut(row.first, row.last):
                    out.append(replace(row, raw_lo=lo - row.offset, raw_hi=hi - row.offset, first=lo, last=hi))
                taken.add(row.first, row.last)
            got = tuple(sorted(out, key=lambda r: r.first))
            object.__setattr__(self, "_encoding_rows", got)  # a cache: frozen stays frozen
        return got

    def table_forms(self) -> list[TableForm]:
        return [f for f in self.forms.values() if isinstance(f, TableForm)]

def _forms(spec: Spec) -> dict[str, Form]:
    out: dict[str, Form] = {}
    counted = 0
    for f in spec.forms:
        line = f.loc.line
        if f.kind == "linear":
            out[f.name] = DigitsForm(f.name, line, tuple(tuple(d.runs) for d in positions(f)), f.at or 0,
                                     significance(f))
        elif f.kind == "literal":
            out[f.name] = LiteralForm(f.name, line, bytes(d.runs[0][0] for d in positions(f)))
        elif f.kind == "composite":
            sub = f.items[0].sub
            assert sub is not None  # a composite form is one sub-form
            out[f.name] = CompositeForm(f.name, line, sub.form)
        elif f.kind == "table":
            assert f.table is not None  # what makes its kind "table"
            out[f.name] = TableForm(f.name, line, tuple(tuple(d.runs) for d in positions(f)),
                                    [t.name for t in spec.tables].index(f.table), significance(f))
        else:
            out[f.name] = CountedForm(f.name, line, counted)
            counted += 1
    return out


def _profiles(spec: Spec) -> tuple[Profile, ...]:
    return tuple(Profile(p.name, p.loc.line, tuple(ProfileRule(r.severity, r.kind, tuple(r.ranges), r.message,
                                                                r.loc.line) for r in p.rules))
                 for p in spec.profiles)


def _check_spanning(spec: Spec, pattern_rules, machine, actions) -> None:
    """A pattern over several characters needs ``combine``: else encoders would write it."""
    for pattern, rule in zip(spec.patterns, pattern_rules):
        if pattern.combine or pattern.shift:
            continue
        # a character that ends its mode (`-> MODE`) is never written by the encoder
        inner = first_inner_char(machine, rule.patterns,
                                 lambda k: actions[k].kind == "char" and getattr(actions[k], "then", None) is None)
        if inner is not None:
            raise SpecError(f"ill-formed pattern '{pattern.name}' spans several characters "
                            f"({inner.hex(' ').upper()} is already one), so an encoder writing them one by one "
                            "would produce it: add `combine surrogate-pair` (encoders then join the two) "
                            "or match within one form", pattern.loc)


def _cut(spec: Spec, rows, rule_list, rule_action, machine, row_patterns):
    """Rows (and their byte patterns) without the code points an ill-formed pattern overrides."""
    def positions_of(row):
        f = spec.form(row.form)
        return (tuple(d.runs for d in positions(f)), significance(f)) if f.kind == "linear" else None

    kept = cut_rows(rows, rule_list, rule_action, machine, positions_of, lambda name: spec.form(name).loc)
    old = {(r.form, r.raw_lo, r.raw_hi): p for r, p in zip(rows, row_patterns)}
    patterns = []
    for r in kept:
        if (r.form, r.raw_lo, r.raw_hi) in old:
            patterns.append(old[(r.form, r.raw_lo, r.raw_hi)])
        else:
            pats = form_patterns(spec.form(r.form), r.raw_lo, r.raw_hi)
            patterns.append(tuple(tuple(tuple((lo, hi) for lo, hi, _ in pos) for pos in pat) for pat in pats))
    return kept, tuple(patterns)


def compile_spec(spec: Spec) -> Automaton:
    """Build the automaton of a validated spec; SpecError for conflicts it reveals."""
    with paused_gc():
        return _compile_modes(spec) if spec.modes else _compile(spec)


def _compile_modes(spec: Spec) -> Automaton:
    """The automaton of a spec with modes: each mode's part (then each twin, where a
    shift right after a shift is an error), their states one table (modes.py)."""
    twins = (False, True) if spec.shift_after_shift else (False,)
    parts = [_compile(mode_spec(spec, name, twin)) for twin in twins for name in spec.modes]
    actions: list = []
    index: dict = {}
    starts: list[int] = []
    nxt: list[tuple[int, ...]] = []
    ops: list[tuple] = []
    accept: list[int | None] = []
    lines: list[tuple[int, ...]] = []
    at_end: list[int | None] = []
    for part in parts:
        base = len(nxt)
        starts.append(base)
        remap = []
        for act in part.actions:
            k = index.setdefault(act, len(actions))
            if k == len(actions):
                actions.append(act)
            remap.append(k)
        for s in range(part.n_states):
            nxt.append(tuple(DEAD if (t := part.next[s][c]) == DEAD else t + base for c in part.classes))
            ops.append(tuple(part.ops[s][c] for c in part.classes))
            k = part.accept[s]
            accept.append(None if k is None else remap[k])
            lines.append(part.state_lines[s])
            end = part.at_end[s] if part.at_end else None
            at_end.append(None if end is None else remap[end])
    classes, reps = _dfa.byte_classes(_dfa.Dfa(tuple(nxt), tuple(ops), tuple(accept), tuple(lines),
                                               tuple(at_end)))
    paths = shift_paths(spec)
    n = len(spec.modes)
    modes = tuple(Mode(name, starts[k], starts[n + k] if len(twins) > 1 else None, parts[k], paths[k],
                       tuple(f.name for f in spec.forms if f.then is not None and f.mode in (None, name)),
                       spec.modes.index(dict(spec.unencodable_shifts)[name])
                       if name in dict(spec.unencodable_shifts) else None)
                  for k, name in enumerate(spec.modes))
    first = parts[0]
    forms = {name: f for part in parts for name, f in part.forms.items()}
    order = [spec.modes.index(m) for m in spec.encode_modes]
    # every sequence an encoder mode writes, with its bytes in the first such mode (no
    # shift): the starters and prefixes the encoder watches; Mode.part has each mode's own
    sequences: dict[tuple[int, ...], bytes] = {}
    for k in order:
        for cps, data in parts[k].sequences:
            sequences.setdefault(cps, data)
    return replace(first, classes=classes, next=tuple(tuple(row[b] for b in reps) for row in nxt),
                   ops=tuple(tuple(row[b] for b in reps) for row in ops), accept=tuple(accept),
                   state_lines=tuple(lines), actions=tuple(actions),
                   at_end=tuple(at_end) if any(e is not None for e in at_end) else (),
                   forms=MappingProxyType(forms), modes=modes, sequences=tuple(sorted(sequences.items())),
                   encode_modes=tuple(order), sticky=spec.sticky,
                   cheapest=spec.cheapest,
                   encode_end=tuple(spec.modes.index(m) for m in spec.encode_end or spec.encode_modes[:1]),
                   spec_file=spec.path, spec_sha256=spec.sha256)


def _reasons(spec: Spec) -> Reasons:
    """The decoder's words for each error: the spec's own, else CPython's (the encoder's may be None)."""
    said = spec.reason  # REASONS gives each decoder error a default: `or ""` only tells mypy so
    return Reasons(said("invalid-start") or "", said("invalid-continuation") or "", said("unexpected-end") or "",
                   said("truncated-unit") or "", said("unmapped") or "", said("unencodable"))


def _compile(spec: Spec) -> Automaton:
    rows = all_rows = segments(spec)  # all_rows: before ill-formed patterns cut them
    rule_list = rules(spec, rows)
    row_patterns = tuple(tuple(tuple(tuple((lo, hi) for lo, hi, _ in pos) for pos in pat) for pat in r.patterns)
                         for r in rule_list[:len(rows)])
    # actions are identified by what they compute (their forms do not count), so
    # forms that compute alike share accepting states (UTF-8 then needs Höhrmann's
    # handful of states)
    actions: list = []
    action_index: dict = {}  # action -> its index (actions compare by what they compute)
    rule_action: list[int | None] = []
    for r in rule_list:
        if r.ext is not None:  # a counted form's prefix: it enters the extension, accepts nothing
            rule_action.append(None)
            continue
        k = action_index.setdefault(r.action, len(actions))
        if k == len(actions):
            actions.append(r.action)
        actions[k] = named(actions[k], r.action.form)
        rule_action.append(k)
    if spec.reserved:
        actions.append(Reserved())
    extensions = [extension_data(spec, f) for f in spec.forms if f.kind == "counted"]
    ext_first = {k: set(e.first_bytes) for k, e in enumerate(extensions)}
    locs: dict[str | tuple[str, int], Loc | None] = {f.name: f.loc for f in spec.forms}
    locs.update({p.name: p.loc for p in spec.patterns})
    locs["reserved"] = spec.reserved_loc
    for k, f in enumerate(f for f in spec.forms if f.kind == "counted"):
        locs[("ext", k)] = f.loc
    machine = _dfa.build(rule_list, rule_action, actions, spec.reserved, ext_first, locs)
    if spec.patterns:  # ill-formed patterns override forms: leave out what no longer decodes
        first = len(rows) + sum(f.kind == "table" or isinstance(f.value, tuple) for f in spec.forms)
        _check_spanning(spec, rule_list[first:first + len(spec.patterns)], machine, actions)
        rows, row_patterns = _cut(spec, rows, rule_list, rule_action, machine, row_patterns)
    # a signature that switches the byte order starts the rest in a machine of that order
    orders = [spec.byte_order] + sorted({s.byte_order for s in spec.signatures
                                         if s.byte_order not in (None, spec.byte_order)})
    starts = [0]
    for order in orders[1:]:
        other = _dfa.build(rules(_in_byte_order(spec, order), all_rows), rule_action, actions,
                           spec.reserved, ext_first, locs)
        starts.append(len(machine.next))
        machine = _dfa.concat(machine, other)
    signatures = tuple((s.bytes, orders.index(s.byte_order or spec.byte_order)) for s in spec.signatures)
    classes, reps = _dfa.byte_classes(machine)
    nxt = tuple(tuple(row[b] for b in reps) for row in machine.next)
    ops = tuple(tuple(row[b] for b in reps) for row in machine.op)
    if not reps or all(t == DEAD for t in nxt[0]):
        raise SpecError("no byte can start a sequence", spec.forms[0].loc)
    if machine.accept[0] is not None:
        raise SpecError("a form accepts the empty byte sequence", spec.forms[0].loc)
    a = Automaton(
        name=spec.name, title=spec.title, aliases=spec.aliases, source=spec.source,
        spec_file=spec.path, spec_sha256=spec.sha256,
        code_space=(spec.code_space.lo, spec.code_space.hi),
        holes=tuple((r.lo, r.hi) for r in spec.holes if r.hi is not None),  # parse gives each an upper end
        skips=tuple((r.lo, r.hi) for r in spec.skips if r.hi is not None),
        signature=spec.signature, reserved=spec.reserved, classes=classes, next=nxt, ops=ops,
        accept=machine.accept, state_lines=machine.lines, actions=tuple(actions), rows=tuple(rows),
        forms=MappingProxyType(_forms(spec)), extensions=tuple(extensions), claims=tuple(c.name for c in spec.claims),
        # a run of digits whose units combine writes a lead and a trail that read back as one (UTF-7)
        pair_on_encode=any(p.combine for p in spec.patterns) or (spec.digit_run is not None and spec.digit_run.pairs), row_patterns=row_patterns,
        profiles=_profiles(spec), unit=spec.unit,
        at_end=machine.at_end if any(a is not None for a in machine.at_end) else (),
        starts=tuple(starts), signatures=signatures, byte_orders=tuple(orders),
        reasons=_reasons(spec),
        tables=tuple(build_table(t, spec) for t in spec.tables),
        encode_only=tuple((e.code_point, e.bytes) for e in spec.encodes if isinstance(e.code_point, int)),
        error_span=spec.error_span, restore=spec.restore, permutation=spec.permutation,
        digit_run=spec.digit_run,
        digit_reasons=tuple(spec.reason(k) or "" for k in ("partial-unit", "nonzero-padding", "unterminated-run"))
        if spec.digit_run is not None else (),
    )
    a = _undecodable(a, spec) if spec.undecodable is not None else a
    return replace(a, sequences=writable(spec, a)) if _has_sequences(spec) else a


def _has_sequences(spec: Spec) -> bool:
    return (any(isinstance(e.code_point, tuple) for e in spec.encodes) or any(isinstance(f.value, tuple)
            for f in spec.forms) or any(len(cps) > 1 for t in spec.tables for _, _, cps in t.extra))


def _undecodable(a: Automaton, spec: Spec) -> Automaton:
    """*a* decoding nothing (`undecodable`): every byte leads into a state that reads
    every byte and accepts none, so that any input is one token that the data's end
    makes an error (its reason the statement's), and a decoder handed the data piece
    by piece suspends in that state, reading each byte once.  The forms stay the
    encoder's."""
    assert spec.undecodable is not None
    line = (spec.forms[0].loc.line,)
    return replace(a, classes=(0,) * 256, next=((1,), (1,)), ops=((None,), (None,)), accept=(None, None),
                   state_lines=(line, line), at_end=(), starts=(0,), byte_orders=(a.byte_orders[0],),
                   signatures=(), reasons=replace(a.reasons, unexpected_end=spec.undecodable,
                                                  truncated_unit=spec.undecodable),
                   undecodable=True)


def _in_byte_order(spec: Spec, order: str) -> Spec:
    """*spec* with its units' bytes in *order*: what follows a signature that chooses it."""
    return replace(spec, byte_order=order, forms=tuple(replace(f, byte_order=order) for f in spec.forms),
                   patterns=tuple(replace(p, byte_order=order) for p in spec.patterns))
