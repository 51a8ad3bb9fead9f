"""The Encoding Standard's labels name the whatwg- specs, and shadow nothing.

Each encoding of specs/tables/whatwg/encodings.json (the standard's list, copied
unchanged) that is built in as whatwg-NAME answers to whatwg-LABEL for each of its
labels (whatwg-ascii and whatwg-iso-8859-1 are windows-1252, as in browsers), and no
whatwg- alias is a CPython codec's name or another built-in's name.
"""
from __future__ import annotations

import encodings
import json
from pathlib import Path

from encspec.spec import registry

WHATWG_DIR = Path(__file__).resolve().parents[1] / "specs" / "tables" / "whatwg"
# built in under other names (utf-8, utf-16le, utf-16be) or not yet (ISO-2022-JP: stateful)
NOT_WHATWG_SPECS = {"UTF-8", "UTF-16LE", "UTF-16BE", "ISO-2022-JP"}


def _standard() -> dict[str, list[str]]:
    groups = json.loads((WHATWG_DIR / "encodings.json").read_text("utf-8"))
    return {enc["name"]: enc["labels"] for group in groups for enc in group["encodings"]}


def test_every_encoding_of_the_standard_is_built_in():
    names = set(registry.builtin_names())
    missing = [n for n in _standard() if n not in NOT_WHATWG_SPECS and f"whatwg-{n.lower()}" not in names]
    assert not missing
    assert len(_standard()) == 40


def test_every_label_finds_its_spec():
    for name, labels in _standard().items():
        if name in NOT_WHATWG_SPECS:
            continue
        for label in labels:
            assert registry.find_builtin(f"whatwg-{label}").stem == f"whatwg-{name.lower()}", label


def test_no_whatwg_alias_shadows_a_codec_or_another_spec():
    names = {registry.normalise(n): n for n in registry.builtin_names()}
    for path in registry.builtin_paths():
        if not path.stem.startswith("whatwg-"):
            continue
        for m in registry.ALIASES_LINE.finditer(path.read_text("utf-8")):
            for alias in (a.strip() for a in m.group(1).split(",")):
                key = registry.normalise(alias)
                assert names.get(key, path.stem) == path.stem, alias
                assert encodings.search_function(key) is None, alias
                assert registry.find_builtin(alias) == path, alias
