"""The index of the built-in specs, ``generated/index.json``: each one's name, title,
aliases, source and the SHA-256 of its spec file.

``encspec build`` writes it (``--check`` compares it) so that ``encspec list`` and the
shell completion of spec names read one small file instead of compiling every spec;
``describe`` reads a built-in's generated description the same way.
An entry whose spec file changed since (a checkout edited but not rebuilt) is not
trusted: that spec is compiled, as list did for all of them before.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..spec import registry
from ..version import __version__

NAME = "index.json"
Entry = dict[str, Any]


def entry(automaton: Any) -> Entry:
    """A spec's index entry, from its compiled automaton."""
    return {"name": automaton.name, "title": automaton.title or None, "aliases": list(automaton.aliases),
            "source": automaton.source or None, "file": automaton.spec_file, "sha256": automaton.spec_sha256}


def document(automata: list[Any]) -> str:
    """The index file's text: every built-in's entry, in the order of ``encspec list``."""
    import json

    return json.dumps({"generator": f"encspec {__version__}",
                       "generated": "do not edit; regenerate with `encspec build`",
                       "specs": [entry(a) for a in automata]}, indent=1) + "\n"


def path() -> Path:
    import encspec.generated
    return Path(encspec.generated.__path__[0]) / NAME


def read() -> list[Entry]:
    """The entries the index file holds (none when it is missing or unreadable)."""
    import json  # not at the top: decode and validate import this module, and never read JSON

    try:
        specs = json.loads(path().read_text("utf-8"))["specs"]
    except (OSError, ValueError, KeyError, TypeError):
        return []
    return specs if isinstance(specs, list) else []


def builtins() -> list[Entry]:
    """Every built-in spec's entry: from the index where it matches the spec file, else
    compiled now."""
    known = {e.get("file"): e for e in read() if isinstance(e, dict)}
    out = []
    for spec in registry.builtin_paths():
        found = known.get(f"specs/{spec.name}")
        if found is None or found.get("sha256") != registry.file_sha256(spec):
            from ..pipeline import load
            found = entry(load(str(spec))[1])
        out.append(found)
    return out


def generated_description(name_or_path: str) -> dict[str, Any] | None:
    """A built-in's describe document (``generated/tables/NAME.describe.json``, every
    form of describe's output) when SPEC names a built-in and the document was generated
    from its spec file as it is now; else None (a user's spec, a stale or missing
    document: the caller compiles the spec)."""
    import json

    try:
        spec = registry.find(name_or_path)
    except registry.SpecError:
        return None
    if spec.parent.resolve() != registry.specs_dir().resolve():
        return None
    name = registry.module_name(spec.stem)
    try:
        doc = json.loads((path().parent / "tables" / f"{name}.describe.json").read_text("utf-8"))
        current = doc["spec"]["sha256"] == registry.file_sha256(spec)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return doc if current else None


def complete_spec(ctx: object, param: object, incomplete: str) -> list[Any]:
    """Shell completion of a SPEC: the built-in names and aliases that start with what was
    typed (from the index), and file names, for a spec of one's own."""
    from click.shell_completion import CompletionItem
    items = []
    for e in read():
        for name in (e["name"], *e["aliases"]):
            if name.lower().startswith(incomplete.lower()):
                items.append(CompletionItem(name, help=e["title"]))
    return [*items, CompletionItem(incomplete, type="file")]
