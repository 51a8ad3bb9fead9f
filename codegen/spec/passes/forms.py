"""Forms: each resolved from its positions and options, then checked as a whole
(which options go together, what a table, literal, pair or counted form needs)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..diagnostics import Loc, SpecError
from ..model import DigitSet, Form, Item, is_const
from .counts import checked_expr, var_locs
from .draft import Draft, stops_at_first_error
from .items import check_length, item


@stops_at_first_error
def forms(draft: Draft) -> None:
    """Each form in spec order: a name of its own, its positions and options, the
    table it reads, its fixed length; resolved into draft.forms."""
    default_mapping = draft.values.get("numbering", "direct")
    by_name: dict[str, Form] = {}  # the forms so far, for sub-form references
    for loc, (name_tok, items, options) in draft.raw_forms:
        name = str(name_tok)
        if name in by_name:
            raise SpecError(f"form '{name}' is defined twice", Loc(name_tok.line, name_tok.column))
        new = form(name, loc, items, options, draft.alphabets, by_name, default_mapping, draft.unit,
                   draft.byte_order)
        if loc in draft.section:
            new = replace(new, mode=draft.section[loc])
        if new.then is not None and new.then not in {m for m, _ in draft.modes}:
            raise SpecError(f"unknown mode '{new.then}' (declare it with a 'mode' statement)",
                            new.option_locs["then"])
        draft.forms.append(new)
        if new.table is not None and new.table not in draft.tables:
            raise SpecError(f"unknown table '{new.table}' (define it with a 'table' statement)",
                            new.option_locs["table"])
        check_length(f"form '{name}'", new.items, by_name, loc, draft.unit)
        by_name[name] = new


def form(name: str, loc: Loc, raw_items: Sequence[Any], options: Sequence[Any], alphabets: Mapping[str, DigitSet],
         earlier: Mapping[str, Form], default_mapping: str, unit: int = 1, byte_order: str = "big") -> Form:
    """One 'form' statement resolved: names bound before use, each option once."""
    items: list[Item] = []
    bound: dict[str, Loc] = {}
    for raw in raw_items:
        it, rexpr = item(raw, alphabets, earlier, unit)
        if it.upto is not None:
            raise SpecError("a range of counts {M,N} is an ill-formed pattern's: a form has one length "
                            "(write a form per count)", raw[3][2])
        if binds := it.binds:
            if binds in bound:  # {n} of a name bound earlier: a count, not a binding
                it = Item(it.loc, it.digits, it.sub, it.count, None, it.field, it.shortest)
            else:
                bound[binds] = it.loc
        elif rexpr is not None:
            for var, vloc in var_locs(rexpr, []):
                if var not in bound:
                    raise SpecError(f"unknown name '{var}' in a repetition count", vloc)
        if it.field:
            if it.field in bound:
                raise SpecError(f"name '{it.field}' is bound twice", it.loc)
            bound[it.field] = it.loc
        items.append(it)
    opts: dict[str, Any] = {}  # each option's value, as the transformer built it
    locs: dict[str, Loc] = {}
    for _, key, value, oloc in options:
        if key in opts:
            raise SpecError(f"option '{key}' is given twice", oloc)
        opts[key], locs[key] = value, oloc
    if "range" in opts:
        lo, hi = opts["range"]
        for var, vloc in var_locs(lo, []) + var_locs(hi, []):
            if var not in bound:
                raise SpecError(f"unknown name '{var}' in a range", vloc)
        opts["range"] = (checked_expr(lo, "a range bound", locs["range"]),
                         checked_expr(hi, "a range bound", locs["range"]))
    new = Form(
        name=name, loc=loc, items=tuple(items), mapping=opts.get("mapping", default_mapping),
        min=opts.get("min"), at=opts.get("at"), value=opts.get("value"),
        combine=opts.get("combine"), value_range=opts.get("range"), option_locs=locs,
        max=opts.get("max"), digit_order=opts.get("digit-order", "big"), unit=unit, byte_order=byte_order,
        at_end=bool(opts.get("end")), table=opts.get("table"), then=opts.get("then"),
    )
    check_form(new)
    return new


def check_pair(items: Sequence[Item], loc: Loc) -> None:
    """'combine surrogate-pair' joins a lead surrogate sub-form and a trail one."""
    subs = [i for i in items if i.sub]
    if len(subs) != 2 or len(items) != 2:
        raise SpecError("'combine surrogate-pair' needs exactly two sub-forms", loc)
    hi, lo = subs[0].sub, subs[1].sub
    assert hi is not None and lo is not None
    if not (0xD800 <= hi.lo and hi.hi <= 0xDBFF and 0xDC00 <= lo.lo and lo.hi <= 0xDFFF):
        raise SpecError("surrogate-pair needs a lead surrogate range (in U+D800..U+DBFF) "
                        "then a trail surrogate range (in U+DC00..U+DFFF)", subs[0].loc)


def check_form(form: Form) -> None:
    """Which options go together, and what each kind of form needs."""
    subs = [i for i in form.items if i.sub]
    locs = form.option_locs
    if form.table is not None:
        for key in ("min", "at", "value", "combine", "range", "max", "mapping"):
            if key in locs:
                raise SpecError(f"'{key}' makes no sense on a table form: the table gives its code points",
                                locs[key])
        if subs or any(i.binds or i.field or not is_const(i.count) for i in form.items):
            raise SpecError("a table form must be a fixed-length sequence of byte positions", locs["table"])
        return
    if form.value is not None:
        if any(i.digits is None or i.digits.radix != 1 for i in form.items) or any(
            not is_const(i.count) for i in form.items
        ):
            raise SpecError("a special sequence '= U+…' must consist of fixed bytes", locs["value"])
        for key in ("min", "at", "combine", "range"):
            if key in locs:
                raise SpecError(f"'{key}' makes no sense with a fixed value", locs[key])
    if subs and form.combine is None:
        raise SpecError("a form made of sub-forms needs 'combine surrogate-pair'", subs[0].loc)
    if form.combine is not None:
        check_pair(form.items, locs["combine"])
        for key in ("min", "at"):
            if key in locs:
                raise SpecError(f"'{key}' makes no sense on a surrogate-pair form: its code points follow "
                                "from the pair's; remove it", locs[key])
    if form.value is None and form.combine is None:
        check_min_at(form)
    for key, why in (("max", "a direct form of fixed length"), ("digit-order", "a form of fixed length"),
                     ("end", "a form of fixed length")):
        if key in locs and not (form.kind == "linear" and (form.mapping == "direct" or key != "max")
                                or form.kind == "literal" and key == "end"):
            raise SpecError(f"'{key if key != 'digit-order' else form.digit_order + '-endian'}' needs {why}",
                            locs[key])
    if form.max is not None and form.min is not None and form.max < form.min:
        raise SpecError(f"max U+{form.max:04X} lies below min U+{form.min:04X}", locs["max"])
    if form.kind == "counted":
        if form.mapping != "direct":
            raise SpecError("a counted form must use the direct mapping", form.loc)
        if "range" not in locs:
            raise SpecError("a counted form needs 'range LOW .. HIGH' bounding its value", form.loc)
    elif form.value_range is not None:
        raise SpecError("'range' is only for counted forms (use min / code-space)", locs["range"])


def check_min_at(form: Form) -> None:
    """'min' means "counted from U+0000, lower values are overlong"; 'at' means "counted from here"."""
    locs = form.option_locs
    if form.mapping == "packed" and "min" in locs:
        raise SpecError("'min' does nothing on a packed form (packed forms have no overlong sequences): "
                        "remove it, or write 'direct' to count the form from U+0000", locs["min"])
    if "min" in locs and "at" in locs:
        later = max(("min", "at"), key=lambda k: (locs[k].line, locs[k].column))
        raise SpecError(f"'at U+{form.at:04X}' and 'min U+{form.min:04X}' contradict each other: 'at' counts "
                        "the form from its code point, 'min' counts it from U+0000 and makes lower values "
                        "overlong; keep one", locs[later])
