"""The whole pipeline behind one call: parse → model → automaton, claims verified."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from .analyse.properties import check
from .automaton import Automaton, compile_spec
from .spec import registry
from .spec.diagnostics import SpecError
from .spec.model import Spec
from .spec.parse import parse_file


def load(name_or_path: str) -> tuple[Spec, Automaton]:
    """Spec and automaton for a built-in name or a spec path."""
    path = registry.find(name_or_path)
    return _load(str(Path(path).resolve()), Path(path).stat().st_mtime_ns)


@lru_cache(maxsize=64)
def _load(path: str, _mtime: int) -> tuple[Spec, Automaton]:
    shown = _shown_path(path)
    try:
        spec = parse_file(path)
    except SpecError as e:
        raise e.located(shown, e.text) from None
    spec = _relabel(spec, shown)
    try:
        automaton = compile_spec(spec)
        verify_claims(spec, automaton)
    except SpecError as e:
        raise e.located(shown, spec.text) from None
    return spec, automaton


def _shown_path(path: str) -> str:
    """Built-in specs are named ``specs/NAME.encspec`` so output does not depend on the checkout."""
    p = Path(path)
    if p.parent == registry.specs_dir().resolve():
        return f"specs/{p.name}"
    try:
        return str(p.relative_to(Path.cwd()))
    except ValueError:
        return str(p)


def _relabel(spec: Spec, path: str) -> Spec:
    from dataclasses import replace
    return replace(spec, path=path, warnings=tuple(w.located(path, spec.text) for w in spec.warnings))


def verify_claims(spec: Spec, automaton: Automaton) -> None:
    """Every property the spec claims must hold; else a SpecError with a counterexample."""
    if not spec.claims:
        return
    names = [c.name.replace("-", "_") for c in spec.claims]
    report = check(automaton, names)
    for claim, name in zip(spec.claims, names):
        if not report.properties[name]:
            example = _explain(automaton, name, report.counterexamples[name])
            raise SpecError(f"claimed property '{claim.name}' does not hold: {example}", claim.loc)


# What each property's counterexample shows (see analyse/properties.py for their shapes).
_WHY = {
    "prefix_free": "{0} is a proper prefix of {1}, and both are valid",
    "self_synchronizing": "{0} is valid, and its tail {1} starts a valid sequence",
    "order_preserving": "{0} encodes a lower code point than {1} but does not sort before it",
    "ascii_compatible": "{0} does not use its ASCII bytes as themselves alone",
    "bijective": "{0} and {1} both decode to {cp}",
    "total": "{0} has no encoding",
}


def _explain(automaton: Automaton, name: str, example: list) -> str:
    from .runtime.tables import scan
    shown = [x.hex(" ").upper() if isinstance(x, bytes) else str(x) for x in example]
    why = _WHY.get(name)
    if why is None or len(shown) != ("{1}" in why) + 1:  # not the shape this explains
        return " / ".join(shown)
    cp = "the same code point"
    if isinstance(example[0], bytes) and example[0]:
        tok = scan(automaton, example[0], 0)
        if tok[0] == "char" and tok[2] == len(example[0]):
            cp = f"U+{tok[3]:04X}"
    return why.format(*shown, cp=cp)


# ------------------------------------------------------------------ exports
def render_files(a: Automaton, lang: str, options: dict | None = None) -> dict[str, str]:
    """:func:`encspec.emit.targets.render_files`, with the conformance vectors an exported
    package's own tests check computed here when *a* has none checked in: emit never
    runs an analysis, the pipeline joins the two."""
    from .emit import targets
    return targets.render_files(a, lang, _with_vectors(a, lang, options))


def export(a: Automaton, lang: str, out_dir: Path, options: dict | None = None) -> list[Path]:
    """:func:`encspec.emit.targets.export`, the vectors as :func:`render_files` has them."""
    from .emit import targets
    return targets.export(a, lang, out_dir, _with_vectors(a, lang, options))


def _with_vectors(a: Automaton, lang: str, options: dict | None) -> dict | None:
    from .emit import package_tests, targets  # the exports' templates: only when exporting
    target = targets.targets().get(lang)
    if target is None or "vectors" not in target.options or (options or {}).get("vectors") is not None:
        return options
    if target.supports(a) is not None or package_tests.checked_in(a) is not None:
        return options  # refused (render_files says why), or the checked-in vectors serve
    from .analyse import encode_vectors
    from .analyse.vectors import jsonl
    encode = {"encode_vectors": encode_vectors.jsonl(a)} if "encode_vectors" in target.options else {}
    return {**(options or {}), "vectors": jsonl(a), **encode}
