"""Each statement on its own, in spec order: given once, its own content well formed
(an alphabet's runs, a table's file, an encode file), and the statements every spec needs."""
from __future__ import annotations

from ..diagnostics import Loc, SpecError
from ..index_files import read_encode_file
from ..model import EncodeRule
from .alphabets import alphabet
from .draft import SINGLE, Draft, stops_at_first_error
from .profiles import profile
from .tables import read_table


@stops_at_first_error
def declarations(draft: Draft) -> None:
    """A single statement given twice; a name an alphabet, table or profile takes twice;
    a reason given twice; each alphabet, table and encoder entry read and checked."""
    seen = draft.seen
    profile_names: set[str] = set()
    for kind, loc, payload in draft.statements:
        if kind in SINGLE:
            if kind in seen:
                raise SpecError(f"'{kind}' is given twice (first at line {seen[kind].line})", loc)
            seen[kind] = loc
        if kind == "alphabet":
            name, runs = payload
            if name in draft.alphabets:
                raise SpecError(f"alphabet '{name}' is defined twice", loc)
            draft.alphabets[name] = alphabet(name, runs)
        elif kind == "reason":
            what, text_, rloc = payload
            if what in draft.reasons:
                raise SpecError(f"reason '{what}' is given twice", rloc)
            draft.reasons[what] = text_
        elif kind == "table":
            name = str(payload[0])
            if name in draft.tables:
                raise SpecError(f"table '{name}' is defined twice", Loc(payload[0].line, payload[0].column))
            draft.tables[name] = read_table(name, loc, payload, draft.path)
        elif kind == "encode":
            draft.encodes.append(EncodeRule(payload[0], payload[1], loc, draft.section.get(loc)))
        elif kind == "unencodable":
            for r in payload:
                if r.hi is None or r.hi - r.lo > 0x10FFFF:
                    raise SpecError("an unencodable range needs an upper end", r.loc)
                draft.encodes += [EncodeRule(cp, None, r.loc, draft.section.get(loc)) for cp in range(r.lo, r.hi + 1)]
        elif kind == "encode-file":
            written, wloc = payload
            got, _ = read_encode_file(draft.path, written, wloc)
            draft.encodes += [EncodeRule(cp, b, wloc, draft.section.get(loc)) for cp, b in got]
        elif kind == "profile":
            resolved = profile(payload)
            if resolved.name in profile_names:
                raise SpecError(f"profile '{resolved.name}' is defined twice", loc)
            profile_names.add(resolved.name)
            draft.profiles.append(resolved)


@stops_at_first_error
def required(draft: Draft) -> None:
    """The statements every spec has: its name, its code space, a form."""
    if "encoding" not in draft.values:
        raise SpecError("the spec has no 'encoding NAME' statement", draft.first)
    if "code-space" not in draft.values:
        raise SpecError("the spec has no 'code-space' statement", draft.first)
    if not draft.raw_forms:
        raise SpecError("the spec defines no form", draft.first)
