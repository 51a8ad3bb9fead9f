"""Modes (ISO-2022's and HZ's shift states): declared once, named where used."""
from __future__ import annotations

from ..diagnostics import SpecError
from .draft import Draft, stops_at_first_error


@stops_at_first_error
def modes(draft: Draft) -> None:
    """Each mode once; `encode-modes` and `ill-formed shift-after-shift` name modes that
    exist, and need some; what a spec with modes cannot have yet, refused by name."""
    names: set[str] = set()
    for name, loc in draft.modes:
        if name in names:
            raise SpecError(f"mode '{name}' is declared twice", loc)
        names.add(name)
    chosen = draft.values.get("encode-modes")
    for keyword in ("encode-modes", "encode-end", "shift-after-shift"):
        if keyword in draft.values and not names:
            raise SpecError(f"'{keyword}' needs modes (declare them with 'mode NAME')", draft.seen[keyword])
    for named in ([chosen[0]] if chosen is not None else []) + [draft.values.get("encode-end", ())]:
        listed: set[str] = set()
        for name, loc in named:
            if name not in names:
                raise SpecError(f"unknown mode '{name}' (declare it with a 'mode' statement)", loc)
            if name in listed:
                raise SpecError(f"mode '{name}' is listed twice", loc)
            listed.add(name)
    seen: set[str] = set()
    for kind, loc, payload in draft.statements:
        if kind != "unencodable-shift":
            continue
        target, tloc = payload
        mode = draft.section.get(loc)
        if mode is None:
            raise SpecError("'unencodable -> MODE' belongs in a mode's section (after 'mode NAME')", loc)
        if target not in names:
            raise SpecError(f"unknown mode '{target}' (declare it with a 'mode' statement)", tloc)
        if mode in seen:
            raise SpecError(f"mode '{mode}' already has an 'unencodable -> MODE'", loc)
        seen.add(mode)
        draft.unencodable_shifts.append((mode, target))
    if not names:
        return
    for what, present in (("a signature", bool(draft.raw_signatures)), ("'bytes through'", "bytes-through" in
                          draft.values), ("'undecodable'", "undecodable" in draft.values),
                          ("code units wider than a byte", draft.unit > 1)):
        if present:
            raise SpecError(f"a spec with modes cannot have {what} yet", draft.modes[0][1])
    for f in draft.forms:
        if f.kind == "counted":
            raise SpecError(f"form '{f.name}': a spec with modes cannot have counted forms yet", f.loc)
