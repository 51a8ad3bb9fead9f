"""The package layout states the pipeline (issues 13 and 27): checked on the source with ``ast``.

* every part of codegen/ (a folder, or a module at its top) is placed in
  ``LAYERS`` and imports only the parts listed there: the stages only look back
  (spec -> automaton -> runtime -> emit | analyse), pipeline, codec, io and
  bench sit above them, cli on top;
* the import graph of codegen/ (imports at module level and inside functions
  alike: a lazy import is still a dependency) has no cycle, module by module
  and folder by folder;
* no module takes another's private (underscore) names by import, nor reads
  another package's private names as attributes: of a module it imported from
  another package, or of a generated module (``module._tokens``), or with
  ``getattr(x, "_name")``.

Nothing is imported: the source is parsed, so a module that fails to import
still gets its layout checked.  Every check takes the source folder, so
``test_the_checks_fail_on_planted_violations`` runs them on a copy with one
violation of each kind planted and sees each fail.
"""
from __future__ import annotations

import ast
import shutil
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "codegen"
GENERATED = ROOT / "generated"
PACKAGE = "encspec"

_FIRST = ("version",)  # read by everyone
_STAGES = _FIRST + ("spec", "automaton", "runtime")

# part of codegen/ -> the parts it may import (itself always).  A part not listed here
# fails test_every_part_is_placed: a new folder must say where it stands.
LAYERS: dict[str, tuple[str, ...]] = {
    "version": (),
    "generated": (),  # not in codegen/: generated/, installed as encspec.generated (cli finds its files)
    "spec": _FIRST,
    "automaton": _FIRST + ("spec",),
    "runtime": _FIRST + ("spec", "automaton"),           # what generated modules run; no emit, analyse, io
    "emit": _STAGES,                                     # writes the automaton out; never reads analyse
    "analyse": _STAGES,                                  # reads the automaton, runs it through the core
    "pipeline": _STAGES + ("analyse", "emit"),           # spec -> automaton, claims verified; exports get their vectors
    "codec": _STAGES + ("emit", "pipeline"),             # load/register: a spec never built is compiled now
    "io": _STAGES + ("codec",),                          # streams, files in parallel; never analyse or emit
    "bench": _STAGES + ("emit", "pipeline", "codec", "io"),
    "encspec": ("version", "codec", "io"),               # the package's own __init__: load, register, ...
    "cli": _STAGES + ("emit", "analyse", "pipeline", "codec", "io", "bench", "encspec", "generated"),
    "__main__": ("cli",),
}

# Backward imports not yet removed, each with what removes it: none.  A backward import
# not listed fails, and so does an entry no longer imported (test_the_known_backward_imports_exist).
KNOWN_BACKWARD: set[tuple[str, str]] = set()

# Private attribute reads across packages that are allowed for now: none.  A read not
# listed here fails, and so does an entry that no longer matches a read
# (test_the_allowed_private_reads_still_exist).
ALLOWED_READS: set[tuple[str, str]] = set()


@dataclass(frozen=True)
class Import:
    module: str      # the importing module, e.g. encspec.cli.main
    target: str      # the module imported, e.g. encspec.spec.registry
    names: tuple     # the names taken from it (from X import a, b), else ()
    line: int
    bound: str = ""  # the name the module is bound to (`from . import x as y`: y), if a module

    def where(self) -> str:
        return f"{self.module} (line {self.line})"


def module_name(path: Path, source: Path = SOURCE) -> str:
    parts = list(path.relative_to(source).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGE] + parts)


def part(module: str) -> str:
    """The part of codegen/ a module belongs to: its top folder, or its own name at the top."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else PACKAGE


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def modules(source: Path = SOURCE) -> dict[str, Path]:
    return {module_name(p, source): p for p in sorted(source.rglob("*.py"))}


@cache
def _tree(path: Path, text: str) -> ast.Module:
    return ast.parse(text, str(path))


def tree(path: Path) -> ast.Module:
    return _tree(path, path.read_text("utf-8"))


def resolve(module: str, package: bool, node: ast.ImportFrom) -> str:
    """The absolute name a ``from`` import reads from."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".") if package else module.split(".")[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def ours(name: str) -> bool:
    return name == PACKAGE or name.startswith(PACKAGE + ".")


def module_imports(name: str, path: Path, known: dict[str, Path]) -> list[Import]:
    out = []
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if ours(alias.name):
                    out.append(Import(name, alias.name, (), node.lineno, alias.asname or ""))
        elif isinstance(node, ast.ImportFrom):
            source = resolve(name, is_package(path), node)
            if not ours(source):
                continue
            plain = []
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                if sub in known:  # `from . import c_target`: the module itself
                    out.append(Import(name, sub, (), node.lineno, alias.asname or alias.name))
                else:
                    plain.append(alias.name)
            if plain:
                out.append(Import(name, source, tuple(plain), node.lineno))
    return out


def imports(source: Path = SOURCE) -> list[Import]:
    """Every import of an encspec module, anywhere in each module's code."""
    known = modules(source)
    return [i for name, path in known.items() for i in module_imports(name, path, known)]


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


# ------------------------------------------------------------------ the checks
def private_imports(source: Path = SOURCE) -> list[str]:
    found = imports(source)
    bad = [f"{i.where()}: from {i.target} import {n}"
           for i in found for n in i.names if private(n) and i.target != i.module]
    bad += [f"{i.where()}: import of the private module {i.target}"
            for i in found if any(private(p) for p in i.target.split("."))]
    return bad


def backward_imports(source: Path = SOURCE, stage: str | None = None) -> list[str]:
    """Imports of a part its row of LAYERS does not list (of *stage*'s modules only, if given)."""
    bad = []
    for i in imports(source):
        mine, theirs = part(i.module), part(i.target)
        if (mine != theirs and mine in LAYERS and theirs not in LAYERS[mine] and stage in (None, mine)
                and (i.module, i.target) not in KNOWN_BACKWARD):
            bad.append(f"{i.where()}: {mine} imports {i.target} ({theirs} is not below it)")
    return bad


def unplaced(source: Path = SOURCE) -> list[str]:
    return sorted({part(m) for m in modules(source)} - set(LAYERS))


def _stored(nodes: list[ast.stmt]) -> set[str]:
    """Names these statements bind (not looking into functions or classes)."""
    out: set[str] = set()
    todo = list(nodes)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif isinstance(node, ast.alias):
            out.add((node.asname or node.name).split(".")[0])
        todo.extend(ast.iter_child_nodes(node))
    return out


def globals_of(trees: list[ast.Module]) -> set[str]:
    """Private names the modules bind at their top level (functions, classes, assignments, imports)."""
    return {n for t in trees for n in _stored(t.body) if private(n)}


def members_of(trees: list[ast.Module]) -> set[str]:
    """Private names the modules give objects: in class bodies, and by assigning ``x._name``."""
    out: set[str] = set()
    for t in trees:
        for node in ast.walk(t):
            if isinstance(node, ast.ClassDef):
                out |= _stored(node.body)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                out.add(node.attr)
    return {n for n in out if private(n)}


def private_reads(source: Path = SOURCE, generated: Path = GENERATED) -> list[tuple[str, str, str]]:
    """``(module, name, where)`` for each read of another package's private name as an attribute.

    A read ``x._name`` (or ``getattr(x, "_name")``) is another package's when *x* is
    a module imported from another part, or when *x* is not a module of the reader's
    own part and ``_name`` is a private name of another part or of a generated module
    but no class member of the reader's own part (``self._x`` and ``cls._x`` are the
    reader's own).  The second rule is how reads of generated modules, which are
    loaded at run time and never imported by name, are seen.
    """
    known = modules(source)
    by_part: dict[str, list[ast.Module]] = {}
    for name, path in known.items():
        by_part.setdefault(part(name), []).append(tree(path))
    members = {p: members_of(ts) for p, ts in by_part.items()}
    names = {p: members[p] | globals_of(ts) for p, ts in by_part.items()}
    from_generated = globals_of([tree(p) for p in sorted(generated.glob("*.py"))])
    bad = []
    for name, path in known.items():
        mine = part(name)
        others = from_generated.union(*(d for p, d in names.items() if p != mine))
        # runtime/core.py is copied into every generated module: their private names are runtime's own
        own = members[mine] | (names[mine] if mine == "runtime" else set())
        bound = {i.bound: i.target for i in module_imports(name, path, known) if i.bound and "." not in i.bound}
        for node in ast.walk(tree(path)):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and private(node.attr):
                value, attr = node.value, node.attr
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                  and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2
                  and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
                  and private(node.args[1].value)):
                value, attr = node.args[0], node.args[1].value
            else:
                continue
            held = value.id if isinstance(value, ast.Name) else None
            if held in ("self", "cls"):
                continue
            if held in bound:
                if part(bound[held]) != mine:
                    bad.append((name, attr, f"{name} (line {node.lineno}): {held}.{attr} of {bound[held]}"))
            elif attr in others and attr not in own:
                bad.append((name, attr, f"{name} (line {node.lineno}): .{attr}, private to another package"))
    return bad


def unallowed_private_reads(source: Path = SOURCE, generated: Path = GENERATED) -> list[str]:
    return [where for module, attr, where in private_reads(source, generated)
            if (module, attr) not in ALLOWED_READS]


def graph(source: Path = SOURCE, level=lambda m: m) -> dict[str, set[str]]:
    """The import graph, of modules or (with *level* = ``part``) of the parts of codegen/."""
    known = modules(source)
    g: dict[str, set[str]] = {level(m): set() for m in known}
    for i in imports(source):
        target = i.target
        while target not in known and "." in target:  # `import encspec.x.y` of a name, not a module
            target = target.rsplit(".", 1)[0]
        if target in known and level(target) != level(i.module):
            g[level(i.module)].add(level(target))
    return g


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one node (Tarjan)."""
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


def cycle_lines(g: dict[str, set[str]]) -> list[str]:
    lines = []
    for comp in cycles(g):
        members = set(comp)
        lines.append(", ".join(comp) + ":")
        lines += [f"    {m} -> {t}" for m in comp for t in sorted(g[m] & members)]
    return lines


# ------------------------------------------------------------------- the tests
def test_the_source_is_found():
    found = modules()
    assert "encspec.cli.main" in found and "encspec.automaton" in found and len(found) > 30
    edges = imports()
    assert any(i.module == "encspec.cli.main" for i in edges)
    assert sorted(GENERATED.glob("*.py")), "no generated module to read private names from"


def test_every_part_is_placed():
    assert not unplaced(), f"parts of codegen/ missing from LAYERS: {unplaced()}"


def test_layers_only_look_back():
    """LAYERS itself has no cycle: each part's row lists only parts placed before it."""
    order = list(LAYERS)
    bad = [f"{p} -> {q}" for p, below in LAYERS.items() for q in below if order.index(q) >= order.index(p)]
    assert not bad


def test_no_module_imports_private_names_of_another():
    bad = private_imports()
    assert not bad, "private names imported across modules:\n" + "\n".join(bad)


def test_no_module_reads_private_names_of_another_package():
    bad = unallowed_private_reads()
    assert not bad, "private names of another package read as attributes:\n" + "\n".join(bad)


def test_the_allowed_private_reads_still_exist():
    """An entry of ALLOWED_READS whose read is gone is removed with it."""
    found = {(module, attr) for module, attr, _ in private_reads()}
    assert ALLOWED_READS <= found, f"no longer read, remove from ALLOWED_READS: {sorted(ALLOWED_READS - found)}"


def test_the_known_backward_imports_exist():
    found = {(i.module, i.target) for i in imports()}
    assert KNOWN_BACKWARD <= found, f"no longer imported, remove from KNOWN_BACKWARD: {sorted(KNOWN_BACKWARD - found)}"


def test_cycle_finder_finds_a_cycle():
    """The check below must be able to fail."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles():
    lines = cycle_lines(graph())
    assert not lines, "import cycles (module-level and function-level imports):\n" + "\n".join(lines)


def test_no_import_cycles_between_folders():
    lines = cycle_lines(graph(level=part))
    assert not lines, "import cycles between the parts of codegen/:\n" + "\n".join(lines)


@pytest.mark.parametrize("stage", sorted(LAYERS))
def test_stages_only_import_earlier_stages(stage):
    bad = backward_imports(stage=stage)
    assert not bad, f"codegen/{stage} may import only {', '.join(LAYERS[stage]) or 'nothing'}:\n" + "\n".join(bad)


PLANTS = {
    # a backward import: the run time reaching for an exporter
    "runtime/planted_backward.py": "from ..emit import python\n",
    # a private read of another package's module, bound by import
    "io/planted_module_read.py": "from ..runtime import tables\n\n\ndef f():\n    return tables._core\n",
    # a private read of a generated module, loaded at run time
    "cli/planted_generated_read.py": "def f(module):\n    return module._CLASS_RUNS\n",
    # the same with getattr
    "bench/planted_getattr.py": "def f(module):\n    return getattr(module, '_ROWS', None)\n",
    # a folder-level cycle: automaton -> runtime (and runtime -> automaton)
    "automaton/planted_cycle.py": "def f():\n    from ..runtime import tables\n    return tables\n",
}


def test_the_checks_fail_on_planted_violations(tmp_path):
    copy = tmp_path / "codegen"
    shutil.copytree(SOURCE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert not backward_imports(copy) and not unallowed_private_reads(copy)  # the copy is clean, as is the source
    assert not cycle_lines(graph(copy, level=part))
    for rel, text in PLANTS.items():
        (copy / rel).write_text(text, "utf-8")
    backward = backward_imports(copy)
    assert any("encspec.runtime.planted_backward" in b and "encspec.emit.python" in b for b in backward), backward
    assert any("encspec.automaton.planted_cycle" in b for b in backward), backward
    reads = "\n".join(unallowed_private_reads(copy))
    for module, attr in [("io.planted_module_read", "_core"), ("cli.planted_generated_read", "_CLASS_RUNS"),
                         ("bench.planted_getattr", "_ROWS")]:
        assert f"encspec.{module}" in reads and attr in reads, (module, reads)
    assert any({"automaton", "runtime"} <= set(c) for c in cycles(graph(copy, level=part)))
    (copy / "newpart").mkdir()
    (copy / "newpart" / "__init__.py").write_text("", "utf-8")
    assert unplaced(copy) == ["newpart"]
