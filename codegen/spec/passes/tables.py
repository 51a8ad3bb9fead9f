"""Mapping tables: a 'table' statement's file read and its options checked, and
which of its entries the forms reading it can reach."""
from __future__ import annotations

from math import prod
from typing import Any

from ..diagnostics import Loc, SpecError, SpecWarning
from ..index_files import MAX_POINTER, line_text, read_index
from ..model import RangeSet, Table, evaluate
from .draft import Draft, Problem


def read_table(name: str, loc: Loc, payload: Any, spec_path: str) -> Table:
    """A 'table' statement: its file read, its options checked."""
    _, written, wloc, options = payload
    for key, _oloc, value in options:
        if key == "with":
            for lo, hi, cps, _eloc, cp_locs in value:
                if hi != lo and len(cps) > 1:
                    raise SpecError("a pointer range maps to one first code point (the rest follow it)", cp_locs[1])
    index = read_index(spec_path, written, wloc)
    # the file's sequences first: a spec's own entries ('with') come after the file's
    ranges, skip, last, unreachable = False, [], [], []
    extra: list[tuple[int, int, tuple[int, ...]]] = [(p, p, cps) for p, cps in index.sequences]
    for key, _oloc, value in options:
        if key == "ranges":
            ranges = True
        elif key == "unreachable":
            unreachable += value
        elif key == "with":
            for lo, hi, cps, eloc, _ in value:
                if hi - lo >= MAX_POINTER or hi >= MAX_POINTER:
                    raise SpecError(f"pointer {hi} is beyond a table's limit ({MAX_POINTER - 1})", eloc)
                if hi != lo and cps[0] + hi - lo > 0x10FFFF:
                    raise SpecError("the range runs beyond U+10FFFF", eloc)
                extra.append((lo, hi, cps))
        elif key == "encode-skip":
            skip += value
        else:
            last += value
    if ranges and extra and any(len(cps) > 1 for _, _, cps in extra):
        raise SpecError("a ranges table maps each pointer to one code point", loc)
    return Table(name, loc, written, index.sha256, index.entries, ranges, tuple(extra), tuple(skip), tuple(last),
                 index.lines, tuple(unreachable))


def unreachable(draft: Draft) -> list[Problem]:
    """A warning per table whose entries no form reaches: a table no form uses (at its
    statement), or file lines whose pointer is beyond every form that reads the table
    (at the first such line, counting the rest); an error where 'unreachable' names a
    pointer a form reaches."""
    spec_path, text = draft.path, draft.text
    capacity: dict[str, int] = {}
    readers: dict[str, list[str]] = {}
    for f in draft.forms:
        if f.table is not None:
            cap = prod(i.digits.radix ** evaluate(i.count, {}) for i in f.items if i.digits is not None)
            capacity[f.table] = max(capacity.get(f.table, 0), cap)
            readers.setdefault(f.table, []).append(f"'{f.name}'")
    out: list[Problem] = []
    for t in draft.tables.values():
        if t.name not in capacity:
            out.append(SpecWarning(f"table '{t.name}' is read by no form: none of its {len(t.entries):,} entries "
                                   "is reachable", t.loc, spec_path, text))
            continue
        cap = capacity[t.name]
        for lo, _hi, loc in t.unreachable:
            if lo < cap:
                return [SpecError(f"pointer {lo} is not unreachable: the forms of table '{t.name}' reach pointers "
                                  f"0..{cap - 1}", loc)]
        known = RangeSet(tuple((lo, hi) for lo, hi, _ in t.unreachable))
        beyond = [k for k, (pointer, _) in enumerate(t.entries) if pointer >= cap and known.containing(pointer) is None]
        if not beyond:
            continue
        first = beyond[0]
        who = ("form " if len(readers[t.name]) == 1 else "forms ") + ", ".join(readers[t.name])
        more = (f"; so are {len(beyond) - 1:,} more entries, the last on line {t.lines[beyond[-1]]}"
                if len(beyond) > 1 else "")
        out.append(SpecWarning(f"pointer {t.entries[first][0]} is unreachable: {who} of table '{t.name}' reach "
                               f"pointers 0..{cap - 1}{more}", Loc(t.lines[first], 1), "",
                               line_text(spec_path, t.path), t.path).located(spec_path, text))
    return out

