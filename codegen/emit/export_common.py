"""Read-only helpers shared by the c, rust, js and java export targets (export_common).

Nothing here computes semantics: the tables come straight from the automaton.
What the targets need beyond it is presentation (comments naming byte ranges
and spec lines, the common header) and two facts about integer widths:

* ``acc_bound``: the largest value the accumulator can hold in any state, so a
  target knows whether its natural integer can overflow (and only then emits
  the checks);
* ``counted_plan``: a counted form restated for targets without big integers.
  Its ``range`` bounds must be ``P ** E`` (or a constant power of two, or 0)
  and ``P ** E - 1`` with ``P`` a power of two, and its value digits must have
  a power-of-two radix: then every comparison of the reference tokenizer
  (``number * span > hi``, ``(number + 1) * span - 1 < lo``) is exactly a
  comparison of bit lengths and exponents, which fit in 64 bits.  Any other
  counted form is refused with a SpecError, before anything is written.
"""
from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..automaton import DEAD, Automaton
from ..automaton.actions import Char, Lookup, Pair, Value
from ..automaton.bytesets import runs_text
from ..automaton.counted import Extension
from ..automaton.forms import TableForm
from ..spec import registry
from ..spec.diagnostics import SpecError
from ..spec.expr import text
from ..version import __version__
from .comments import action_comment, state_comment
from .target import refusal


# ------------------------------------------------------------------ names
def module_name(a: Automaton) -> str:
    """utf-8 → utf_8: file stem and C/Rust/JS identifier prefix."""
    name = registry.module_name(a.name) or "encoding"
    return name if name[0].isalpha() else "enc_" + name


def class_name(a: Automaton) -> str:
    """utf-8 → Utf8, corrected-utf-8 → CorrectedUtf8: the Java class."""
    name = "".join(p[:1].upper() + p[1:] for p in module_name(a).split("_") if p) or "Codec"
    return name if name[0].isalpha() else "Encoding" + name


# ------------------------------------------------------- how it was made
def spec_argument(a: Automaton, given: str | None = None) -> str:
    """The SPEC of `encspec export SPEC`, as the regenerate line repeats it.

    *given* is the argument the export was made from: a path stays that path (as
    typed: the spec is not a built-in there), a built-in's name or alias becomes the
    built-in's name.  Without it: a built-in's name when *a* is a built-in (same
    bytes), else the spec's path as encspec shows it."""
    if given is not None:
        try:
            found = registry.find(given)
        except SpecError:
            return given
        return given if found.resolve() == Path(given).resolve() else a.name
    try:
        builtin = registry.find_builtin(a.name)
        if registry.file_sha256(builtin) == a.spec_sha256:
            return a.name
    except (KeyError, OSError):
        pass
    return a.spec_file or a.name


def regenerate_command(a: Automaton, lang: str, given: str | None = None, extra: tuple[str, ...] = ()) -> str:
    """`encspec export SPEC --lang LANG -o DIR ...`, quoted for a POSIX shell: the
    command that writes this package again (every exported file says it)."""
    return shlex.join(["encspec", "export", spec_argument(a, given), "--lang", lang, "-o", "DIR", *extra])


def run_tokens_usage(a: Automaton) -> list[str]:
    """The run-tokens script's usage lines (every language's script says the same)."""
    return [f"./run-tokens < FILE      one token per line, as `encspec tokens {a.name} FILE` prints them",
            "./run-tokens --batch     one input per line of hex on stdin (an empty line is the",
            "                         empty input); each input's tokens, then a line `end`"]


def readme_context(a: Automaton, language: str, package: str, given: str | None = None) -> dict:
    """What every export's README.md says about the spec (templates/readme/base.md.j2):
    the package's name, the language, the spec's source and aliases, and the spec as
    `encspec tokens` takes it."""
    return {"readme": {"package": package, "language": language, "source": a.source,
                       "aliases": list(a.aliases), "spec": shlex.quote(spec_argument(a, given))}}


# ------------------------------------------------------------------ facts


def acc_bound(a: Automaton, cap: int = 1 << 200) -> int | None:
    """The largest accumulator value in any state (None: unbounded or beyond *cap*).

    A fixpoint over the transitions from every start state (a byte order mark's
    machine too), as the decoder core updates ``acc`` (unchanged where the op is
    None); transitions into counted forms do not touch it.
    """
    cb = a.class_bytes()
    best: list[int | None] = [None] * a.n_states
    for s in a.starts:
        best[s] = 0
    for _ in range(a.n_states + 2):
        changed = False
        for s in range(a.n_states):
            here = best[s]
            if here is None:
                continue
            for c in range(a.n_classes):
                t = a.next[s][c]
                if t == DEAD or t >= a.n_states:
                    continue
                op = a.ops[s][c]
                v = here if op is None else here * op[0] + (max(cb[c]) - op[1]) * op[2]
                if v > cap:
                    return None
                if (there := best[t]) is None or v > there:
                    best[t] = v
                    changed = True
        if not changed:
            return max(v for v in best if v is not None)
    return None


def value_bound(a: Automaton, cap: int = 1 << 200) -> int | None:
    """The largest value a DFA action can produce (None: unbounded, or the
    accumulator passes *cap*)."""
    acc = acc_bound(a, cap)
    if acc is None:
        return None
    out = 0
    for act in a.actions:
        if isinstance(act, Value):
            out = max(out, max(act.value) if isinstance(act.value, tuple) else act.value)
        elif isinstance(act, Pair):
            out = max(out, 0x10FFFF)
        elif isinstance(act, Char):
            out = max(out, acc + act.offset)
        elif isinstance(act, Lookup):
            out = max(out, table_top(a.tables[act.table]))
    return out


def needs_wide_checks(a: Automaton, bits: int) -> bool:
    """Whether an unsigned *bits*-bit accumulator can overflow before a char is made."""
    bound = value_bound(a)
    return bound is None or bound >= 1 << bits


def check_pairs(a: Automaton, lang: str) -> None:
    """Surrogate-pair actions split acc in two: the targets do that in 64 bits."""
    for act in a.actions:
        if isinstance(act, Pair):
            bound = acc_bound(a)
            if bound is None or bound >= 1 << 62:
                raise SpecError(f"the {lang} target needs surrogate-pair values below 2**62", None, a.spec_file)


def check_char_offsets(a: Automaton, lang: str) -> None:
    """Offsets and fixed values are held in 64 bits (a sum beyond them is a WIDE token)."""
    for act in a.actions:
        if isinstance(act, Char) and not 0 <= act.offset < 1 << 64:
            raise SpecError(f"the {lang} target needs offsets in 0 .. 2**64 - 1 (form {act.form})",
                            None, a.spec_file)
        if isinstance(act, Value) and isinstance(act.value, tuple):
            check_form_values(a, lang)
        if isinstance(act, Value) and isinstance(act.value, int) and not 0 <= act.value < 1 << 64:
            raise SpecError(f"the {lang} target needs fixed values in 0 .. 2**64 - 1 (form {act.form})",
                            None, a.spec_file)


def dfa_value_bytes(a: Automaton) -> int | None:
    """How many bytes hold the largest code point a DFA action can produce (None: the
    accumulator is unbounded).  A path through the automaton reads at most n_states
    bytes of at most 8 bits each, so the cap is never what stops a finite answer."""
    top = value_bound(a, cap=1 << (8 * (a.n_states + 1)))
    return None if top is None else max(1, (top.bit_length() + 7) // 8)


def check_accumulator(a: Automaton, lang: str) -> None:
    """A WIDE token's value is rebuilt from its bytes into a buffer of fixed size."""
    if dfa_value_bytes(a) is None:
        raise SpecError(f"the {lang} target needs an automaton whose accumulator is bounded "
                        "(a loop that reads digits: write it as a counted form)", None, a.spec_file)


def int64_support(lang: str):
    """C and Rust hold offsets in 64 bits, split surrogate pairs in 64 and rebuild wide
    values from the bytes: these checks are their declared support (counted forms
    they decide like every backend, from bit lengths)."""
    def check(a: Automaton) -> None:
        check_tables(a, lang)
        check_char_offsets(a, lang)
        check_pairs(a, lang)
        check_accumulator(a, lang)
    return refusal(check)


# The targets whose templates read mapping tables and the error-span policies.
TABLE_TARGETS: set[str] = {"c", "rust", "js", "java", "native"}


def check_tables(a: Automaton, lang: str) -> None:
    """A target that does not read mapping tables (or error spans other than the
    maximal subpart, or encoder-only entries) refuses such a spec."""
    if lang in TABLE_TARGETS:
        return
    if a.tables or a.error_span != "maximal-subpart" or a.encode_only:
        raise SpecError(f"the {lang} target does not read mapping tables or error spans yet", None)


# ----------------------------------------------------------- mapping tables
# Every export lays a mapping table out the same way (only the syntax differs):
#
# * an index: its code points as one dense array from pointer ``base`` on,
#   16-bit when every code point of the table is at most U+FFFD (NONE = 0xFFFF
#   marks a pointer without an entry, SEVERAL = 0xFFFE one whose entry is in the
#   overrides), else 32-bit (NONE = 0xFFFFFFFF, SEVERAL = 0xFFFFFFFE);
# * a ranges table: three arrays (the first pointer of each run, its code point,
#   its last pointer), searched by bisection;
# * overrides, looked up first (core.py's _lookup): pointers whose entry is
#   several code points (Big5's four), or a ranges table's single entries
#   (``with 7457 = U+E7C7``), each (pointer, count, offset into one shared
#   pool of code points), sorted by pointer.
NONE16, SEVERAL16 = 0xFFFF, 0xFFFE
NONE32, SEVERAL32 = 0xFFFFFFFF, 0xFFFFFFFE


def table_overrides(t) -> list[tuple[int, tuple[int, ...]]]:
    """(pointer, code points) of a table's overrides, sorted by pointer."""
    raw: Any = getattr(t, "overrides", None)
    if raw is None:
        raw = getattr(t, "sequences", ())
    return sorted((p, tuple(v) if isinstance(v, (tuple, list)) else (int(v),)) for p, v in raw)


def table_top(t) -> int:
    """The largest code point a table gives."""
    top = max([v for v in t.values if v >= 0] or [0])
    if t.ranges and t.starts:
        top = max(top, max(f + last - s for s, f, last in zip(t.starts, t.firsts, t.lasts)))
    for _, cps in table_overrides(t):
        top = max(top, max(cps))
    return top


def tables_context(a: Automaton) -> dict:
    """The mapping tables as every export lays them out (see above), the error-span
    policy and the restore set: ``tables`` (one dict per table), ``pool`` (the
    overrides' code points), ``several`` (some entry is several code points),
    ``span`` (maximal-subpart, one-unit or through-failing-byte), ``restore``
    (byte runs), ``table_bytes`` (the tables' data in bytes, as C lays it out)."""
    tables: list[dict] = []
    pool: list[int] = []  # the overrides' code points
    several = False
    for k, t in enumerate(a.tables):
        over = table_overrides(t)
        uses = [f.name for f in a.forms.values() if getattr(f, "table", None) == k and f.kind == "table"]
        d = {"index": k, "name": t.name, "line": t.line, "source": t.source, "sha256": t.sha256,
             "ranges": bool(t.ranges), "forms": uses, "top": table_top(t),
             "comment": f"table {t.name} (spec line {t.line}): {t.source}, SHA-256 {t.sha256}"}
        entries = []
        for p, cps in over:
            entries.append({"pointer": p, "n": len(cps), "at": len(pool), "cps": list(cps),
                            "text": "+".join(f"{c:X}" for c in cps)})
            pool += cps
            several = several or len(cps) > 1
        d["overrides"] = entries
        if t.ranges:
            d.update(starts=list(t.starts), firsts=list(t.firsts), lasts=list(t.lasts), runs=len(t.starts),
                     entries=sum(b - a_ + 1 for a_, b in zip(t.starts, t.lasts)) + len(over),
                     bits=32, data_bytes=12 * len(t.starts) + 8 * len(over))
        else:
            values = list(t.values)
            base = t.base
            if over:
                lo = min(base, over[0][0]) if values else over[0][0]
                hi = max(base + len(values) - 1, over[-1][0]) if values else over[-1][0]
                values = [-1] * (base - lo) + values + [-1] * (hi - (base + len(values) - 1))
                base = lo
            top = max([v for v in values if v >= 0] or [0])
            bits = 16 if top <= 0xFFFD else 32
            none, mark = (NONE16, SEVERAL16) if bits == 16 else (NONE32, SEVERAL32)
            cells = [none if v < 0 else v for v in values]
            for p, _ in over:
                cells[p - base] = mark
            d.update(base=base, count=len(cells), values=cells, bits=bits, none=none, several=mark,
                     entries=sum(v >= 0 for v in t.values) + len(over),
                     data_bytes=len(cells) * bits // 8 + 8 * len(over))
        tables.append(d)
    return {"tables": tables, "pool": pool, "several": several, "span": a.error_span,
            "restore": [list(r) for r in a.restore], "has_tables": bool(a.tables),
            "table_bytes": sum(d["data_bytes"] for d in tables) + 4 * len(pool)}


def check_several(a: Automaton, lang: str) -> None:
    """A whole-buffer decode writes at most one code point per byte: an entry of
    several code points must not have more than the bytes of a form that reads it."""
    for f in a.forms.values():
        if not isinstance(f, TableForm):
            continue
        most = max([len(c) for _, c in table_overrides(a.tables[f.table])] or [1])
        if most > f.length:
            raise SpecError(f"the {lang} target needs an entry of several code points to have no more "
                            f"of them than its form has bytes (form {f.name}: {most} code points, "
                            f"{f.length} bytes)", None, a.spec_file)


def check_form_values(a: Automaton, lang: str) -> None:
    """The exports' decoders give a literal form's action one code point: a form whose
    value is several code points (``form x: 90 41 = U+304B U+309A``) is refused in one
    line, as a limit of the target (a table's entries of several code points are held)."""
    for act in a.actions:
        if isinstance(act, Value) and isinstance(act.value, tuple):
            cps = " ".join(f"U+{c:04X}" for c in act.value)
            raise SpecError(f"the {lang} target cannot decode a form whose value is a sequence of code points "
                            f"yet (form {', '.join(act.forms)}: {cps}): a table entry can hold it", None, a.spec_file)


def restore_text(a: Automaton) -> str:
    """The restore set as byte runs (00..7F), for comments."""
    return ", ".join(f"{lo:02X}" if lo == hi else f"{lo:02X}..{hi:02X}" for lo, hi in a.restore) or "(none)"


def restore_test(a: Automaton, var: str = "b", lang: str = "c") -> str:
    """An expression: whether byte *var* is in the restore set (an error never takes
    it after its first byte)."""
    parts = []
    for lo, hi in a.restore:
        if lo == 0 and hi == 0xFF:
            return "true" if lang in ("rust", "js", "java") else "1"
        if lo == hi:
            parts.append(f"{var} == 0x{lo:02X}")
        elif lo == 0:
            parts.append(f"{var} <= 0x{hi:02X}")
        elif hi == 0xFF:
            parts.append(f"{var} >= 0x{lo:02X}")
        else:
            parts.append(f"({var} >= 0x{lo:02X} && {var} <= 0x{hi:02X})")
    if not parts:
        return "false" if lang in ("rust", "js", "java") else "0"
    return " || ".join(parts)


SPAN_LINES = {
    "one-unit": ["  * error spans: every error is one unit (CPython's CJK codecs), except",
                 "    that data ending inside a sequence is one error to the end;"],
    "through-failing-byte": ["  * error spans: an error takes the byte that proved the sequence bad,",
                             "    but ends before the first byte after its first that is in the",
                             "    restore set (WHATWG's \"restore byte to ioQueue\"); a pointer with no",
                             "    table entry likewise; data ending inside a sequence is one error;"],
}


# ---------------------------------------------------------- presentation


def class_names(a: Automaton) -> list[str]:
    """Per class, its bytes as runs."""
    return [runs_text(bs) for bs in a.class_bytes()]


def digit_ops(a: Automaton) -> list[tuple[int, int, int]]:
    """The distinct ops (radix, sub, weight), sorted."""
    return sorted({op for row in a.ops for op in row if op is not None})


def op_list(a: Automaton) -> list[tuple[int, int, int] | None]:
    """The distinct ops, None (acc unchanged) first: tables store an index into this list."""
    return [None, *digit_ops(a)]


def op_index(a: Automaton) -> list[list[int]]:
    lst = op_list(a)
    return [[lst.index(op) for op in row] for row in a.ops]


def class_table_lines(a: Automaton, per_line: int = 16) -> list[tuple[str, list[list[int]]]]:
    """[(comment, [values per line])] for the 256-entry byte → class table, one block per run."""
    out = []
    for lo, hi, c in a.class_runs():
        vals = [c] * (hi - lo + 1)
        chunks = [vals[k:k + per_line] for k in range(0, len(vals), per_line)]
        span = f"{lo:02X}" if lo == hi else f"{lo:02X}..{hi:02X}"
        out.append((f"{span}: class {c}", chunks))
    return out


def header_lines(a: Automaton, lang: str, limits: list[str], usage: list[str], regenerate: str) -> list[str]:
    """The common header of every generated file (without comment markers);
    *regenerate* is :func:`regenerate_command`'s line."""
    title = a.title or a.name
    lines = [
        f"{title}: a decoder generated by encspec {__version__} (target: {lang}).",
        "",
        "Generated, do not edit: regenerate with",
        f"    {regenerate}",
        f"Spec file: {a.spec_file}",
        f"Spec SHA-256: {a.spec_sha256}",
        "",
        "Semantics: exactly those of encspec's decoder core (the module",
        "encspec.runtime.core), which `encspec tokens` prints:",
        "  * a signature is recognised at offset 0 only;",
        "  * otherwise the longest match wins: the automaton runs until it dies",
        "    and falls back to the last accepting state;",
        "  * with no accepting state, an error covers the maximal subpart (the",
        *(["    bytes read before the automaton died, at least one byte), with"] if a.error_span == "maximal-subpart"
          else ["    bytes read before the automaton died, at least one byte; but see",
                "    the error spans below), with"]),
        f"    the reasons \"{a.reasons.invalid_start}\", \"{a.reasons.invalid_continuation}\",",
        f"    \"{a.reasons.unexpected_end}\" or an ill-formed pattern's own;",
        "  * a reserved run is a token of its own;",
    ]
    if a.tables:
        lines += ["  * a table form's raw value is a pointer into a mapping table; a pointer",
                  f"    with no entry is an error (\"{a.reasons.unmapped}\");"]
        if any(len(c) > 1 for t in a.tables for _, c in table_overrides(t)):
            lines += ["  * a few pointers stand for several code points: one token, whose char",
                      "    has them all;"]
    lines += SPAN_LINES.get(a.error_span, [])
    if a.unit > 1:
        lines += [f"  * code units of {8 * a.unit} bits: an error covers whole units (at least one);",
                  "    where the data ends inside a sequence, the error runs to the end of",
                  "    the data (a last partial unit is never read); a partial unit alone",
                  f"    is an error of its own (\"{a.reasons.truncated_unit}\");"]
    if a.at_end:
        lines.append("  * some sequences count only where the data ends (`end` in the spec);")
    if len(a.starts) > 1:
        lines.append("  * a signature chooses the byte order of the rest of the data;")
    if a.extensions:
        lines.append("  * counted forms (unbounded length) continue beyond the automaton as")
        lines.append("    code below, checking after every byte that a valid value is still")
        lines.append("    reachable, so their errors are maximal subparts too.")
    else:
        lines.append("  * this encoding has no counted (unbounded) forms.")
    lines += ["", "Limits:"] + [f"  {x}" for x in limits] + ["", "Usage:"] + [f"  {x}" for x in usage]
    return lines


def spec_lines_text(a: Automaton) -> str:
    lines = sorted({ln for s in a.state_lines for ln in s})
    return ", ".join(map(str, lines))


# ------------------------------------------------------------ counted forms
def counted_plan(a: Automaton) -> list[dict]:
    """Each counted form as its plan: the bit-length range the automaton carries
    (every spec's counted forms have that shape, see encspec.automaton.counted)."""
    plans = []
    for k, ext in enumerate(a.extensions):
        binds = [it for it in ext.items if it.role == "free"]
        field, value = ext.field_item, ext.value_item
        plans.append({
            "index": k, "form": ext.form, "line": ext.line, "prefix": list(ext.prefix_bytes),
            "binds": [{"var": it.binds, "runs": it.runs, "line": it.line} for it in binds],
            "field": {"var": field.field, "runs": field.runs, "radix": field.radix,
                      "count": field.count, "shortest": field.shortest, "line": field.line},
            "value": {"runs": value.runs, "radix": value.radix, "shift": ext.shift,
                      "count": value.count, "shortest": value.shortest, "line": value.line},
            "lo_exp": ext.lo_exp, "min_exp": ext.min_exp, "hi_exp": ext.hi_exp,
            "offset": ext.offset, "min": ext.min,
            "range_text": f"{text(ext.range[0])} .. {text(ext.range[1])}",
        })
    return plans


def form_text(ext: Extension) -> str:
    """A readable restatement of a counted form, for comments."""
    parts = [" ".join(f"{b:02X}" for b in ext.prefix_bytes)] if ext.prefix_bytes else []
    for it in ext.items:
        runs = runs_text([b for lo, hi in it.runs for b in range(lo, hi + 1)])
        if it.binds:
            parts.append(f"{runs}{{{it.binds}}}")
        else:
            assert it.count is not None  # only a free count (binds) has none
            s = f"{runs}{{{text(it.count)}}}"
            if it.field:
                s += f" as {it.field}" + (" shortest" if it.shortest else "")
            parts.append(s)
    return " ".join(parts)


def digit_runs(runs) -> list[tuple[int, int, int]]:
    """(lo, hi, digit of lo) for each run of a digit alphabet: a byte's digit is its index."""
    out, base = [], 0
    for lo, hi in runs:
        out.append((lo, hi, base))
        base += hi - lo + 1
    return out


def common_context(a: Automaton) -> dict:
    """What every native template renders: the tables with their comments."""
    names = class_names(a)
    idx = op_index(a)
    states = []
    for s in range(a.n_states):
        at_end = a.at_end[s] if a.at_end else None
        states.append({
            "next": list(a.next[s]), "op": idx[s], "accept": -1 if a.accept[s] is None else a.accept[s],
            "final": a.final(s), "comment": state_comment(a, s), "at_end": -1 if at_end is None else at_end,
        })
    op_rows = [{"radix": 1, "sub": 0, "weight": 1, "comment": "0: none: acc unchanged (the value does not matter)"}]
    for k, op in enumerate(digit_ops(a), 1):
        times = "" if op[2] == 1 else f" * {op[2]}"
        op_rows.append({"radix": op[0], "sub": op[1], "weight": op[2],
                        "comment": f"{k}: acc = acc * {op[0]} + (byte - 0x{op[1]:02X}){times}"})
    actions = []
    mode_names = [m.name for m in a.modes]
    for act in a.actions:
        kind = ("value" if isinstance(act, Value) else "pair" if isinstance(act, Pair)
                else "lookup" if isinstance(act, Lookup) else act.kind)
        # the mode the next token starts in: a shift's, a character's `-> MODE` (-1: the token's own)
        then = getattr(act, "mode", None) if kind == "shift" else getattr(act, "then", None)
        actions.append({"kind": kind, "offset": getattr(act, "offset", 0), "value": getattr(act, "value", 0),
                        "split": getattr(act, "split", 0), "reason": getattr(act, "reason", "") or "",
                        "table": getattr(act, "table", 0), "comment": action_comment(act),
                        "then": mode_names.index(then) if then in mode_names else -1})
    extensions = []
    for k, ext in enumerate(a.extensions):
        extensions.append({"index": k, "form": ext.form, "line": ext.line, "text": form_text(ext),
                           "state": a.n_states + k})
    return {
        "name": a.name, "title": a.title or a.name, "mod": module_name(a), "MOD": module_name(a).upper(),
        "cls": class_name(a), "spec_file": a.spec_file, "sha256": a.spec_sha256,
        "n_states": a.n_states, "n_classes": a.n_classes, "n_ext": len(a.extensions),
        "class_names": names, "class_blocks": class_table_lines(a), "classes": list(a.classes),
        "states": states, "ops": op_rows, "actions": actions, "extensions": extensions,
        "action_kinds": sorted({x["kind"] for x in actions}),
        "signature": list(a.signature), "signature_hex": a.signature.hex(" ").upper(),
        "reserved": runs_text(a.reserved) if a.reserved else "",
        "max_code_point": a.max_code_point, "spec_lines": spec_lines_text(a),
        # ``bytes through``: the intermediate byte of each real byte, what every byte read goes through
        "from_real": None if a.permutation is None else [a.permutation.index(b) for b in range(256)],
        # code units, byte order and the end of the data (encspec.automaton.Automaton)
        "unit": a.unit,  # bytes per code unit: errors and the data's end count whole units
        "weighted": any(op[2] != 1 for op in digit_ops(a)),  # some op has weight != 1 (little-endian digits)
        "has_at_end": bool(a.at_end),  # some state has an action for where the data ends
        "starts": list(a.starts),  # the start state per byte order; a signature may choose one
        "signatures": [{"bytes": list(sig), "hex": sig.hex(" ").upper(), "start": a.starts[k]}
                       for sig, k in a.signatures],  # recognised at offset 0, the first matching wins
        "reasons": {"start": a.reasons.invalid_start, "continuation": a.reasons.invalid_continuation,
                    "end": a.reasons.unexpected_end, "truncated": a.reasons.truncated_unit,
                    "unmapped": a.reasons.unmapped},
        **tables_context(a),  # mapping tables, error spans, the restore set
    }


def width_context(a: Automaton) -> dict:
    """For 64-bit targets (C, Rust): the code point width and which checks are needed.

    cp_bits: 32 when every code point of the encoding fits in 32 bits, else 64;
    wide_dfa: the automaton's accumulator plus an offset can pass 64 bits (checks in
    the hot loop, and such a char is a WIDE token);
    wide: some code point can be a WIDE token (the automaton's or a counted form's);
    wide_bytes: the buffer that holds the widest code point of the automaton (WIDE
    tokens of bounded forms are rebuilt there from their bytes to find their bit length).
    """
    mcp = a.max_code_point
    cp_bits = 32 if mcp is not None and mcp <= 0xFFFFFFFF else 64
    wide_dfa = cp_bits == 64 and needs_wide_checks(a, 64)
    big_state = a.n_states + len(a.extensions) >= 255
    return {"cp_bits": cp_bits, "wide_dfa": wide_dfa, "wide": wide_dfa or bool(a.extensions),
            "wide_bytes": (dfa_value_bytes(a) or 1) if wide_dfa else 0,
            "state_bits": 16 if big_state else 8, "dead": 0xFFFF if big_state else 0xFF,
            "reason_limit": "counted form beyond this decoder's limits"}


LIMIT_LINES = [
    "* Counted forms: \"a valid value is still reachable\" (the core's test) is",
    "  decided without building the value: its digits have a power-of-two radix",
    "  and the range bounds are powers of two, so the test is an exact",
    "  comparison of bit lengths and exponents, kept in 64-bit integers.",
    "  Counts and exponents are computed exactly and checked to stay within",
    "  +-2**62; an input that needs more (the reference decoder would have to",
    "  build numbers of more than 2**62 bits, so it has no answer either) is",
    "  an error token covering the bytes read so far, with the reason",
]


def wide_limits(a: Automaton, w: dict, type_name: str, api: dict) -> list[str]:
    """The Limits section of a 64-bit target's header.

    *api* names the target's pieces: wide (the WIDE kind), bits (the token's field),
    value (the value writer), decode (the whole-buffer decoder), reason (the LIMIT
    reason) and limit (how the caller sets the counted-form limit)."""
    out = [f"* Code points are {type_name}; the accumulator is 64 bits wide."]
    if w["wide"]:
        out += ["* A code point wider than 64 bits (a value, or a value plus its offset,",
                f"  beyond 2**64 - 1) is a token of kind {api['wide']}: the char's span,",
                f"  value 0, and {api['bits']} = the code point's bit length, of any size.",
                f"  The value writer, {api['value']},",
                "  writes it big-endian, (bits + 7) / 8 bytes, by re-reading the token's",
                "  bytes: a counted form's value digits are packed directly, a bounded",
                "  form's are accumulated again byte by byte (acc = acc * radix + digit",
                "  in a buffer of bytes); both are linear in the token's length.  It",
                "  writes a CHAR token's code point the same way.  `tokens` prints a",
                "  WIDE token as `char START END HEX`, exactly as `encspec tokens` does.",
                f"  {api['decode']} cannot store it: it writes the replacement there",
                "  and counts it as an error.  Nothing else differs from the reference."]
    else:
        out += ["* Every code point of this encoding fits: no difference from the reference",
                f"  ({api['wide']} tokens never occur; the value writer,",
                f"  {api['value']}, writes a CHAR token's code point big-endian)."]
    if a.extensions:
        out += LIMIT_LINES + [f'  "{w["reason_limit"]}" ({api["reason"]}).',
                              "  Negative exponents (bounds that are not integers) are treated the same.",
                              "* The caller's limit on counted forms: once a counted form's header",
                              "  is read, a token that would be longer than the limit (in bytes) is",
                              f"  that same error over the header ({api['limit']};",
                              "  default: no limit).  It bounds the work and the size of WIDE values."]
    return out


def plans_context(a: Automaton, lang: str, expr: Callable) -> tuple[list[dict], set]:
    """counted_plan, with the expressions rendered by *expr(tree, used_ops)*."""
    used: set = set()
    plans = []
    for p in counted_plan(a):
        used.update({"+", "*"})
        v = p["value"]
        plans.append({
            **p,
            "bind_digits": [digit_runs(b["runs"]) for b in p["binds"]],
            "field_digits": digit_runs(p["field"]["runs"]),
            "value_digits": digit_runs(v["runs"]),
            "field_count": expr(p["field"]["count"], used),
            "value_count": expr(v["count"], used),
            "lo_expr": None if p["lo_exp"] is None else expr(p["lo_exp"], used),
            "hi_expr": expr(p["hi_exp"], used),
            "field_count_text": text(p["field"]["count"]),
            "value_count_text": text(v["count"]),
            "lo_text": None if p["lo_exp"] is None else text(p["lo_exp"]),
            "hi_text": text(p["hi_exp"]),
        })
    return plans, used
