"""``encspec build``: regenerate generated/ from specs/ and templates, or check it."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..emit.targets import render_files, targets
from ..runtime import charmap, tables
from ..spec import registry
from .common import Fail, load_spec


@dataclass(frozen=True)
class Output:
    path: Path
    text: str


def outputs(spec: str, out_dir: Path, docs_dir: Path | None = None) -> list[Output]:
    """The files one spec generates under *out_dir* (and its pictures under *docs_dir*,
    by default ``out_dir/docs``), in memory.  The python and json targets must support
    the spec (else Unsupported, before anything is written); the native one is left
    out where it does not (a counted form the C export cannot decode) and for a
    single-byte spec, whose native backend is CPython's charmap codec."""
    from ..analyse import charts, describe, encode_vectors, vectors
    from ..version import __version__
    _, automaton = load_spec(spec)
    name = registry.module_name(automaton.name)
    docs = docs_dir if docs_dir is not None else out_dir / "docs"
    python = render_files(automaton, "python")
    table = render_files(automaton, "json")
    cases = vectors.sections(automaton)
    native = []
    # a single-byte spec has no extension of its own: CPython's charmap codec is its
    # native backend (runtime/charmap.py), so a catalogue of them compiles no C
    if targets()["native"].supports(automaton) is None and charmap.tables(tables.bind(automaton)) is None:
        native = [Output(out_dir / rel, text) for rel, text in render_files(automaton, "native").items()]
    return [
        *(Output(out_dir / rel, text) for rel, text in python.items()),
        *(Output(out_dir / "tables" / rel, text) for rel, text in table.items()),
        # what describe prints, so that describing a built-in compiles nothing
        Output(out_dir / "tables" / f"{name}.describe.json", describe.document(automaton, f"encspec {__version__}")),
        Output(out_dir / "vectors" / f"{name}.txt", vectors.text(automaton, cases)),
        Output(out_dir / "vectors" / f"{name}.jsonl", vectors.jsonl(automaton, cases)),
        Output(out_dir / "vectors" / f"{name}.encode.jsonl", encode_vectors.jsonl(automaton)),
        # the automaton's .svg is not generated here: Graphviz's layout differs between
        # its versions, so only the .dot source is checked in (`encspec chart` renders it)
        Output(docs / f"{name}-codepage.svg", charts.codepage_svg(automaton)),
        # a spec with modes: a code page per mode (the first is the one above)
        *(Output(docs / f"{name}-codepage-{m.name}.svg", charts.codepage_svg(charts.mode_part(automaton, m.name)))
          for m in automaton.modes[1:]),
        Output(docs / f"{name}-automaton.dot", charts.automaton_dot(automaton)),
        # the native backend's C source, compiled by setup.py (encspec.generated._native_<name>)
    ] + native


def docs_dir(out_dir: Path) -> Path:
    """Where the pictures go: docs/ beside the checked-in generated/, else out_dir/docs."""
    root = checkout_root()
    if root is not None and out_dir.resolve() == root / "generated":
        return root / "docs"
    return out_dir / "docs"


def checkout_root() -> Path | None:
    """The source checkout encspec runs from, or None when it runs from an installed copy.

    A checkout is the folder above the package (codegen/) that holds a pyproject.toml
    naming the project "encspec", and the specs/ and generated/ that ``encspec.specs``
    and ``encspec.generated`` are (paths resolved, so an editable install or symlinks
    count).  In site-packages the package's parent is site-packages itself, and
    generated/ is a copy that build must not rewrite."""
    import encspec
    import encspec.generated as g
    root = Path(encspec.__file__).resolve().parent.parent
    try:
        text = (root / "pyproject.toml").read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    try:
        import tomllib  # type: ignore[import-not-found, unused-ignore]  # Python 3.11+ (mypy checks 3.10)
        name = tomllib.loads(text).get("project", {}).get("name")
    except ImportError:  # Python 3.10
        import re
        m = re.search(r'^\[project\][^\[]*?^name\s*=\s*"([^"]*)"', text, re.MULTILINE | re.DOTALL)
        name = m and m.group(1)
    except ValueError:  # tomllib.TOMLDecodeError
        return None
    if name != "encspec":
        return None
    if Path(g.__file__).resolve().parent != root / "generated" or registry.specs_dir().resolve() != root / "specs":
        return None
    return root


def generated_dir() -> Path:
    """The checked-in generated/ folder of this checkout; Fail (exit 2) when encspec is
    installed rather than run from a checkout, so build never rewrites site-packages."""
    root = checkout_root()
    if root is None:
        import encspec
        raise Fail(f"build without SPEC regenerates a source checkout's generated/, and encspec runs from "
                   f"an installed copy ({Path(encspec.__file__).resolve().parent}): use `encspec build SPEC "
                   f"-o DIR`, or `encspec build -o DIR` for every built-in")
    return root / "generated"


def shown(path: Path) -> str:
    """A path as a person wants to read it: relative to the working folder when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def all_outputs(out_dir: Path) -> list[Output]:
    """Every built-in's files, then the index of them all (``encspec list`` reads it) and the
    manual's catalogue page."""
    # pipeline.load, not load_spec: outputs() has printed each spec's warnings once
    from ..pipeline import load
    from . import catalogue, index
    out = []
    for path in registry.builtin_paths():
        out += outputs(str(path), out_dir, docs_dir(out_dir))
    automata = [load(str(path))[1] for path in registry.builtin_paths()]
    return [*out, Output(out_dir / index.NAME, index.document(automata)),
            # the manual's list of them (docs/pages/ beside a checkout's generated/)
            Output(docs_dir(out_dir) / "pages" / catalogue.NAME, catalogue.page(automata))]


def stale(expected: list[Output], out_dir: Path | None = None) -> list[str]:
    """Messages naming every file that is missing, differs, or belongs to no spec."""
    problems = []
    if out_dir is not None:
        known = {o.path.resolve() for o in expected}
        docs = docs_dir(out_dir)
        for path in sorted(list(out_dir.glob("*.py")) + list(out_dir.glob("tables/*.json"))
                           + list(out_dir.glob("vectors/*.txt")) + list(out_dir.glob("vectors/*.jsonl"))
                           + list(out_dir.glob("native/*.c"))
                           + list(docs.glob("*-codepage.svg")) + list(docs.glob("*-automaton.dot"))):
            if path.name != "__init__.py" and path.resolve() not in known:
                problems.append(f"orphan (no spec generates it): {shown(path)}")
    for o in expected:
        if not o.path.exists():
            problems.append(f"missing: {shown(o.path)}")
        elif o.path.read_text("utf-8") != o.text:
            problems.append(f"stale: {shown(o.path)}")
    return problems


def write(expected: list[Output]) -> list[Path]:
    written = []
    for o in expected:
        o.path.parent.mkdir(parents=True, exist_ok=True)
        if not o.path.exists() or o.path.read_text("utf-8") != o.text:
            tmp = o.path.with_suffix(o.path.suffix + ".tmp")
            try:
                tmp.write_text(o.text, "utf-8")
                tmp.replace(o.path)
            except OSError as e:   # a full disk names no file: name the output (one line, exit 2)
                try:
                    tmp.unlink()
                except OSError:
                    pass
                if e.filename is None or e.filename == str(tmp):
                    e.filename = str(o.path)
                raise
            written.append(o.path)
    return written
