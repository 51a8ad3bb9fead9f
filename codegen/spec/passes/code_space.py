"""The code space and its numbering: excluded ranges inside it, 'skip' only where
numbering is packed, and no code point numbered by two forms."""
from __future__ import annotations

from ..diagnostics import SpecError
from ..model import CodeRange, Form, RangeSet, evaluate
from .draft import Draft, Problem, stops_at_first_error


def _shown(x: CodeRange) -> str:
    return f"U+{x.lo:04X}.." + (f"U+{x.hi:04X}" if x.hi is not None else "")


def excluded_ranges(draft: Draft) -> list[Problem]:
    """'ill-formed' and 'skip' ranges lie inside the code space and are closed."""
    space: CodeRange = draft.values["code-space"]
    for r in draft.holes + draft.skips:
        if r.lo < space.lo or (space.hi is not None and (r.hi is None or r.hi > space.hi)):
            return [SpecError(f"range {_shown(r)} reaches outside the code space {_shown(space)}", r.loc)]
        if r.hi is None:
            return [SpecError("an excluded range needs an upper end", r.loc)]
    return []


def _closed(ranges: list[CodeRange]) -> list[tuple[int, int]]:
    out = []
    for r in ranges:
        assert r.hi is not None
        out.append((r.lo, r.hi))
    return out


def _cp_text(r: CodeRange) -> str:
    return f"U+{r.lo:04X}" + ("" if r.hi == r.lo else f"..U+{r.hi:04X}")


def skips(draft: Draft) -> list[Problem]:
    """'skip' only moves packed numbering; with direct forms alone it would silently act as 'ill-formed'."""
    if draft.skips and not any(f.kind == "linear" and f.mapping == "packed" for f in draft.forms):
        r = draft.skips[0]
        return [SpecError(f"'skip' only changes how packed forms number code points, and no form here is packed: "
                          f"write 'ill-formed {_cp_text(r)}' to make these code points ill-formed, "
                          "or 'numbering packed'", r.loc)]
    return []


@stops_at_first_error
def numbering(draft: Draft) -> None:
    """A packed form must not number code points an earlier form already encodes.

    Packed numbering continues where the previous packed form ended (jumping
    over skips); an explicit 'at', or a direct form before it, can make two
    forms encode one code point, which no decoder can undo.
    """
    forms, space, holes, skips = draft.forms, draft.values["code-space"], draft.holes, draft.skips
    cap = space.hi
    skipped = RangeSet(_closed(skips))  # excluded_ranges, an earlier pass, refused open ones
    excluded = RangeSet(_closed(holes + skips))
    cursor = space.lo
    earlier: list[tuple[Form, int, int]] = []  # (form, first, last code point it numbers)
    covered = RangeSet()  # the union of the earlier spans: most forms share nothing, found at once
    for form in forms:
        span: tuple[int, int] | None = None
        if isinstance(form.value, tuple):  # a sequence of code points numbers none
            continue
        if form.kind == "literal":
            assert form.value is not None
            span = (form.value, form.value)
        elif form.kind == "composite":
            hi, lo = form.items[0].sub, form.items[1].sub
            assert hi is not None and lo is not None
            span = (0x10000 + ((hi.lo - 0xD800) << 10) + (lo.lo - 0xDC00),
                    0x10000 + ((hi.hi - 0xD800) << 10) + (lo.hi - 0xDC00))
        elif form.kind == "linear":
            size = 1
            for item in form.items:
                assert item.digits is not None
                size *= item.digits.radix ** evaluate(item.count, {})
            if form.mapping == "direct":
                base = form.at or 0
                top = base + size - 1 if form.max is None else min(base + size - 1, form.max)
                span = (max(base, form.min or 0, space.lo), top)
            else:
                cp = first = form.at if form.at is not None else cursor
                left = size
                while left and (cap is None or cp <= cap):
                    inside = skipped.containing(cp)
                    if inside:
                        cp = inside[1] + 1
                        continue
                    nxt = skipped.next_start(cp)
                    n = left if nxt is None else min(left, nxt - cp)
                    cp, left = cp + n, left - n
                cursor = cp
                span = (first, cp - 1)
                shares = any(excluded.first_outside(a, b) is not None for a, b in covered.overlaps(first, cp - 1))
                for other, o_lo, o_hi in earlier if shares else ():  # the first earlier form it shares with
                    shared = excluded.first_outside(max(first, o_lo), min(cp - 1, o_hi))
                    if shared is None:
                        continue
                    top = max(h for _, _, h in earlier)
                    if form.at is not None:
                        raise SpecError(f"form '{form.name}' numbers U+{shared:04X} from 'at U+{form.at:04X}', "
                                        f"but form '{other.name}' already encodes it: remove 'at' or raise it "
                                        f"to U+{top + 1:04X}", form.option_locs["at"])
                    raise SpecError(f"form '{form.name}' numbers U+{shared:04X}, which form '{other.name}' already "
                                    f"encodes (packed numbering starts after the previous packed form): give it "
                                    f"'at U+{top + 1:04X}'", form.loc)
        if span is not None and span[0] <= span[1]:
            earlier.append((form, span[0], span[1] if cap is None else min(span[1], cap)))
            if earlier[-1][1] <= earlier[-1][2]:
                covered.add(*earlier[-1][1:])
