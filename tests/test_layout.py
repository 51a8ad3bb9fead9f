"""The package layout states the pipeline (issue 13, "Layout"): checked on the source with ``ast``.

* no module imports another module's private (underscore) names;
* the import graph of codegen/ (imports at module level and inside functions
  alike: a lazy import is still a dependency) has no cycle;
* the stages only look backwards: spec knows nothing of what follows it,
  automaton reads only the spec, analyse reads the automaton but never emit,
  cli or io.

Nothing is imported: the source is parsed, so a module that fails to import
still gets its layout checked.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "codegen"
PACKAGE = "encspec"

# folder -> packages of encspec it must never import (itself excluded)
FORBIDDEN = {
    "spec": ("automaton", "runtime", "emit", "analyse", "io", "cli"),
    "automaton": ("runtime", "emit", "analyse", "io", "cli"),
    "analyse": ("emit", "cli", "io"),
}


@dataclass(frozen=True)
class Import:
    module: str      # the importing module, e.g. encspec.cli.main
    target: str      # the module imported, e.g. encspec.spec.registry
    names: tuple     # the names taken from it (from X import a, b), else ()
    line: int

    def where(self) -> str:
        return f"{self.module} (line {self.line})"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SOURCE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGE] + parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(SOURCE.rglob("*.py"))}


def resolve(module: str, package: bool, node: ast.ImportFrom) -> str:
    """The absolute name a ``from`` import reads from."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".") if package else module.split(".")[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports() -> list[Import]:
    """Every import of an encspec module, anywhere in each module's code."""
    known = modules()
    out = []
    for name, path in known.items():
        tree = ast.parse(path.read_text("utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name == PACKAGE or alias.name.startswith(PACKAGE + "."):
                        out.append(Import(name, alias.name, (), node.lineno))
            elif isinstance(node, ast.ImportFrom):
                source = resolve(name, is_package(path), node)
                if source != PACKAGE and not source.startswith(PACKAGE + "."):
                    continue
                plain = []
                for alias in node.names:
                    sub = f"{source}.{alias.name}"
                    if sub in known:  # `from . import c_target`: the module itself
                        out.append(Import(name, sub, (), node.lineno))
                    else:
                        plain.append(alias.name)
                if plain:
                    out.append(Import(name, source, tuple(plain), node.lineno))
    return out


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def test_the_source_is_found():
    found = modules()
    assert "encspec.cli.main" in found and "encspec.automaton" in found and len(found) > 30
    edges = imports()
    assert any(i.module == "encspec.cli.main" for i in edges)


def test_no_module_imports_private_names_of_another():
    bad = [f"{i.where()}: from {i.target} import {n}"
           for i in imports() for n in i.names if private(n) and i.target != i.module]
    bad += [f"{i.where()}: import of the private module {i.target}"
            for i in imports() if any(private(p) for p in i.target.split("."))]
    assert not bad, "private names imported across modules:\n" + "\n".join(bad)


def graph() -> dict[str, set[str]]:
    known = modules()
    g: dict[str, set[str]] = {m: set() for m in known}
    for i in imports():
        target = i.target
        while target not in known and "." in target:  # `import encspec.x.y` of a name, not a module
            target = target.rsplit(".", 1)[0]
        if target in known and target != i.module:
            g[i.module].add(target)
    return g


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def test_cycle_finder_finds_a_cycle():
    """The check below must be able to fail."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles():
    g = graph()
    found = cycles(g)
    lines = []
    for comp in found:
        members = set(comp)
        lines.append(", ".join(comp) + ":")
        lines += [f"    {m} -> {t}" for m in comp for t in sorted(g[m] & members)]
    assert not found, "import cycles (module-level and function-level imports):\n" + "\n".join(lines)


@pytest.mark.parametrize("stage", sorted(FORBIDDEN))
def test_stages_only_import_earlier_stages(stage):
    prefix = f"{PACKAGE}.{stage}"
    banned = tuple(f"{PACKAGE}.{x}" for x in FORBIDDEN[stage])
    bad = [f"{i.where()}: imports {i.target}" for i in imports()
           if (i.module == prefix or i.module.startswith(prefix + "."))
           and any(i.target == b or i.target.startswith(b + ".") for b in banned)]
    assert not bad, f"codegen/{stage} must not import {', '.join(FORBIDDEN[stage])}:\n" + "\n".join(bad)
