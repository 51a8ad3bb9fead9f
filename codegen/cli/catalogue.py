"""The catalogue page of the manual, ``docs/pages/catalogue.md``: every built-in spec's
name, aliases, title and source, grouped by the reference it equals.

``encspec build`` writes it from the specs beside ``generated/index.json`` (``--check``
compares it), so the list a reader sees is the list that ships.  A spec's group comes
from what it says of itself: a source naming CPython, or a ``whatwg-`` name."""
from __future__ import annotations

from typing import Any

NAME = "catalogue.md"

GROUPS = (
    ("CPython's codecs",
     "Each equals CPython's codec of its name (CPython 3.11): every byte and byte pair decodes alike, "
     "strictly (the same error spans and reasons) and with `replace`, and every code point encodes to the "
     "same bytes or is refused alike, as does every sequence of code points big5hkscs and the JIS X 0213 "
     "codecs write as one (`tests/test_cpython_catalogue.py`, `tests/test_cpython_cjk.py`, "
     "`tests/test_cpython_one_to_many.py`). "
     "The tables were read back from CPython by `specs/tables/cpython/extract.py`, which also writes the "
     "single-byte spec files."),
    ("The WHATWG Encoding Standard",
     "Each is the standard's encoding of the name after `whatwg-` (its decoder and encoder, with the "
     "standard's index files in `specs/tables/whatwg/`), checked against an oracle written from the "
     "standard."),
    ("Other encodings",
     "Encodings from their own documents (the source column): the UTF family, its historical and "
     "variant forms, and variable-length integers."),
)


def group(automaton: Any) -> int:
    """The index in GROUPS of the reference a spec equals."""
    if automaton.name.startswith("whatwg-"):
        return 1
    return 0 if automaton.source.startswith("CPython") else 2


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def page(automata: list[Any]) -> str:
    """The page's Markdown: one table per group, specs in ``encspec list`` order."""
    lines = ["# The catalogue", "",
             "<!-- do not edit: `encspec build` writes this page from specs/ (`encspec build --check` compares it) -->",
             "",
             f"encspec ships {len(automata)} built-in specs. Each is found by its name or any alias, spelt "
             "as Python spells codec names (`encspec decode latin-1`, `encspec.load(\"Windows-1252\")`); "
             "`encspec list` prints the same list.", ""]
    for k, (title, text) in enumerate(GROUPS):
        members = [a for a in automata if group(a) == k]
        if not members:
            continue
        lines += [f"## {title}", "", f"{text} ({len(members)} specs.)", "",
                  "| name | aliases | title | source |", "|---|---|---|---|"]
        for a in members:
            aliases = ", ".join(f"`{x}`" for x in a.aliases)
            lines.append(f"| `{a.name}` | {aliases} | {_cell(a.title)} | {_cell(a.source)} |")
        lines.append("")
    return "\n".join(lines)
