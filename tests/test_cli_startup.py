"""The CLI starts fast because it imports only what the command run needs (issue 33,
item 3): commands load lazily, so ``--version``, ``decode``, ``validate``, ``tokens``,
``list`` and ``describe`` of a plain built-in never import the compiler (lark, jinja2, the automaton, the emitters,
the analyses that need them).  The import graph is what is asserted, never a time.

Each case runs in a fresh interpreter: an import made by another test must not hide
one made by the command.
"""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("lark", "jinja2", "tqdm", "dask", "encspec.pipeline", "encspec.spec.parse", "encspec.automaton",
         "encspec.emit", "encspec.analyse.describe", "encspec.analyse.properties")

PROBE = """
import json, sys
from encspec.cli import main
code = main(sys.argv[2:])
with open(sys.argv[1], "w") as f:
    json.dump({"code": code, "modules": sorted(sys.modules)}, f)
"""


def imported_by(tmp_path, *argv: str) -> tuple[int, list[str]]:
    """(exit code, every module imported) of ``encspec ARGV`` run in a fresh interpreter."""
    report = tmp_path / "modules.json"
    r = subprocess.run([sys.executable, "-c", PROBE, str(report), *argv], capture_output=True, timeout=120, check=False)
    assert b"Traceback" not in r.stderr, r.stderr.decode("utf-8", "replace")
    got = json.loads(report.read_text())
    return got["code"], got["modules"]


def heavy(modules: list[str]) -> list[str]:
    return [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)]


@pytest.fixture
def small(tmp_path):
    path = tmp_path / "small.txt"
    path.write_bytes("caf\u00e9\n".encode())
    return str(path)


@pytest.mark.parametrize("argv", [
    ["--version"],
    ["decode", "utf-8", "{small}"],
    ["validate", "utf-8", "{small}"],
    ["tokens", "utf-8", "{small}"],
    ["list"],
    ["list", "--json"],
    ["describe", "utf-8"],
    ["describe", "--json", "corrected-utf-8"],
    ["describe", "whatwg-big5"],
    ["describe", "--ill-formed", "gb18030"],
    ["encode", "utf-16le", "{small}"],
], ids=lambda argv: " ".join(argv).replace(" {small}", ""))
def test_command_imports_no_compiler(tmp_path, small, argv):
    code, modules = imported_by(tmp_path, *(a.format(small=small) for a in argv))
    assert code == 0
    assert heavy(modules) == []
    assert "encspec.cli.commands.export" not in modules   # the other commands stay unimported


def test_a_command_imports_only_its_own_module(tmp_path, small):
    _, modules = imported_by(tmp_path, "decode", "utf-8", small)
    commands = [m for m in modules if m.startswith("encspec.cli.commands.")]
    assert commands == ["encspec.cli.commands.decode"]


def test_describe_of_a_spec_file_still_compiles_it(tmp_path):
    """The probe sees the compiler when a command needs it: a user's spec is compiled."""
    spec = tmp_path / "mini.encspec"
    from encspec.spec import registry
    spec.write_text(registry.find("utf-8").read_text("utf-8"), "utf-8")
    code, modules = imported_by(tmp_path, "describe", str(spec))
    assert code == 0
    assert "lark" in modules and "encspec.pipeline" in modules


def test_help_lists_every_command_module(capsys):
    """Lazy loading finds every module in cli/commands without importing it first."""
    from pathlib import Path

    import encspec.cli.commands as package
    from conftest import run_cli
    rc, out, _ = run_cli(capsys, "--help")
    assert rc == 0
    listed = {line.split()[0] for line in out.split("Commands:")[1].splitlines() if line.strip()}
    modules = {p.stem.replace("_", "-") for p in Path(package.__path__[0]).glob("*.py") if p.stem != "__init__"}
    assert modules and modules <= listed
    assert {"list", "describe", "build", "tokens"} <= listed


def test_python_dash_m_encspec_runs_the_command(small):
    r = subprocess.run([sys.executable, "-m", "encspec", "decode", "utf-8", small], capture_output=True,
                       timeout=120, check=False)
    assert (r.returncode, r.stdout, r.stderr) == (0, "caf\u00e9\n".encode(), b"")
    r = subprocess.run([sys.executable, "-m", "encspec", "--version"], capture_output=True, text=True, timeout=120, check=False)
    assert r.returncode == 0 and r.stdout.startswith("encspec, version ")


def entries_with(title_of_utf8: str, sha256: str | None = None) -> list[dict]:
    from encspec.cli import index
    out = []
    for e in index.read():
        if e["name"] == "utf-8":
            e = {**e, "title": title_of_utf8, "sha256": sha256 or e["sha256"]}
        out.append(e)
    return out


def test_list_reads_the_index(tmp_path, monkeypatch, capsys):
    """A title only the index holds is what list prints: it read the index, compiled nothing."""
    import json as json_

    from conftest import run_cli
    from encspec.cli import index
    fake = tmp_path / "index.json"
    fake.write_text(json_.dumps({"specs": entries_with("Title from the index")}))
    monkeypatch.setattr(index, "path", lambda: fake)
    rc, out, _ = run_cli(capsys, "list")
    assert rc == 0
    assert "utf-8                Title from the index (aliases: utf8" in out


def test_list_does_not_trust_an_entry_whose_spec_changed(tmp_path, monkeypatch, capsys):
    import json as json_

    from conftest import run_cli
    from encspec.cli import index
    fake = tmp_path / "index.json"
    fake.write_text(json_.dumps({"specs": entries_with("Title from the index", "0" * 64)}))
    monkeypatch.setattr(index, "path", lambda: fake)
    rc, out, _ = run_cli(capsys, "list")
    assert rc == 0
    assert "Title from the index" not in out and "utf-8                UTF-8 (RFC 3629)" in out


def test_the_checked_in_index_lists_every_builtin():
    from encspec.cli import index
    from encspec.spec import registry
    assert [e["file"] for e in index.read()] == [f"specs/{p.name}" for p in registry.builtin_paths()]
