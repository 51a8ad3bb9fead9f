"""Ill-formed patterns: a name of their own, fixed length, a proper pair."""
from __future__ import annotations

from ..diagnostics import Loc, SpecError
from ..model import Pattern, evaluate, is_const
from .draft import Draft, stops_at_first_error
from .forms import check_pair
from .items import check_length, item


@stops_at_first_error
def patterns(draft: Draft) -> None:
    """Each ill-formed pattern in spec order, resolved into draft.patterns."""
    by_name = draft.by_name
    pattern_names: set[str] = set()
    unit = draft.unit
    for loc, (name_tok, items, reason, combine, at_end, shift) in draft.raw_patterns:
        for what, named in (("a form", by_name), ("an ill-formed pattern", pattern_names)):  # messages name both alike
            if str(name_tok) in named:
                raise SpecError(f"'{name_tok}' already names {what}: give this ill-formed pattern a name of its own",
                                Loc(name_tok.line, name_tok.column))
        pattern_names.add(str(name_tok))
        its = tuple(item(i, draft.alphabets, by_name, unit)[0] for i in items)
        if any(i.binds or i.field or not is_const(i.count) for i in its):
            raise SpecError(f"{'a shift' if shift else 'an ill-formed pattern'} must have a fixed length", loc)
        check_length(f"{'shift' if shift else 'ill-formed pattern'} '{name_tok}'", its, by_name, loc, unit)
        ranged = next((i for i in its if i.upto is not None), None)
        if shift is not None and ranged is not None:
            raise SpecError(f"shift '{name_tok}': a shift sequence is fixed bytes, one count each "
                            "(the encoder writes it)", ranged.loc)
        if ranged is not None and all(i.upto is not None and evaluate(i.count, {}) == 0 for i in its):
            raise SpecError(f"ill-formed pattern '{name_tok}' would match no bytes: give one position "
                            "a count of at least 1", ranged.loc)
        if combine and ranged is not None:
            raise SpecError("a pair's pattern (combine) has one length: no range of counts", ranged.loc)
        if combine:
            check_pair(its, loc)
        what = "shift" if shift else "ill-formed pattern"
        if shift is not None and shift[0] not in {name for name, _ in draft.modes}:
            raise SpecError(f"unknown mode '{shift[0]}' (declare it with a 'mode' statement)", shift[1])
        if shift is not None and any(i.digits is None or i.digits.radix != 1 for i in its):
            raise SpecError(f"{what} '{name_tok}': a shift sequence is fixed bytes", loc)
        draft.patterns.append(Pattern(str(name_tok), loc, its, reason, combine, unit, draft.byte_order, at_end,
                                      draft.section.get(loc), shift[0] if shift else None))
