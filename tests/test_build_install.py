"""An installed encspec (issue 16, item 6): `encspec build` without SPEC regenerates a
source checkout's generated/, so outside one it refuses (one line, exit 2) instead of
rewriting site-packages; `build [SPEC] -o DIR` works anywhere; and setup.py says when
the optional native extensions could not be built.

The installed copy is the package laid out as a wheel lays it out (encspec/ with
generated/, specs/, grammars/ inside), in tmp_path; nothing is installed.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import without_bytecode
from encspec.cli import build, main

ROOT = Path(__file__).resolve().parents[1]
CLI = "import sys; from encspec.cli import main; sys.exit(main(sys.argv[1:]))"
IGNORE = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd")


def test_this_checkout_is_recognised():
    assert build.checkout_root() == ROOT
    assert build.generated_dir() == ROOT / "generated"


def test_build_check_refuses_when_not_in_a_checkout(monkeypatch, capsys):
    monkeypatch.setattr(build, "checkout_root", lambda: None)
    assert main(["build", "--check"]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    lines = out.err.splitlines()
    assert len(lines) == 1, out.err
    assert "installed copy" in lines[0] and "-o DIR" in lines[0]
    assert "Traceback" not in out.err


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """site/encspec: the package as a wheel installs it, beside a pyproject.toml naming
    encspec (so only the location of generated/ tells it from a checkout)."""
    site = tmp_path_factory.mktemp("site")
    package = site / "encspec"
    shutil.copytree(ROOT / "codegen", package, ignore=IGNORE)
    for sub in ("generated", "specs", "grammars"):
        shutil.copytree(ROOT / sub, package / sub, ignore=IGNORE)
    shutil.copy2(ROOT / "pyproject.toml", site / "pyproject.toml")
    return site


def run_installed(site: Path, cwd: Path, *args):
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run([sys.executable, "-c", CLI, *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def snapshot(folder: Path) -> dict:
    return {p: (p.stat().st_mtime_ns, p.stat().st_size) for p in without_bytecode(folder)}


def test_the_installed_copy_is_what_runs(installed, tmp_path):
    env = {**os.environ, "PYTHONPATH": str(installed)}
    r = subprocess.run([sys.executable, "-c", "import encspec, os; print(os.path.realpath(encspec.__file__))"],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert r.stdout.strip() == str((installed / "encspec" / "__init__.py").resolve())


@pytest.mark.parametrize("args", [["build"], ["build", "--check"]])
def test_an_installed_copy_refuses_to_rebuild_itself(installed, tmp_path, args):
    generated = installed / "encspec" / "generated"
    before = snapshot(generated)
    (generated / "tables" / "utf_8.json").unlink()       # a stale install must still not be rewritten
    try:
        r = run_installed(installed, tmp_path, *args)
    finally:
        shutil.copy2(ROOT / "generated" / "tables" / "utf_8.json", generated / "tables" / "utf_8.json")
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stdout == ""
    assert len(r.stderr.splitlines()) == 1, r.stderr
    assert "installed copy" in r.stderr and str((installed / "encspec").resolve()) in r.stderr
    assert set(snapshot(generated)) == set(before)


@pytest.mark.slow  # builds every spec into a folder: ENCSPEC_SLOW=1 (CI) runs it
def test_an_installed_copy_builds_into_a_folder(installed, tmp_path):
    r = run_installed(installed, tmp_path, "build", "wtf-8", "-o", "one")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "one" / "wtf_8.py").read_text("utf-8") == (ROOT / "generated" / "wtf_8.py").read_text("utf-8")
    r = run_installed(installed, tmp_path, "build", "-o", "all")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "all" / "tables" / "cesu_8.json").is_file()
    assert (tmp_path / "all" / "docs" / "cesu_8-codepage.svg").is_file()   # pictures beside it, not in a checkout
    r = run_installed(installed, tmp_path, "build", "--check", "-o", "all")
    assert r.returncode == 0, r.stderr


def test_playground_from_an_installed_copy_is_a_usage_error(installed, tmp_path):
    """The playground is built from a checkout's web/: asked of an installed copy it is
    a usage error (one line, exit 2) and no output folder is made."""
    r = run_installed(installed, tmp_path, "playground", "-o", "site")
    assert (r.returncode, r.stdout) == (2, ""), r.stderr
    assert len(r.stderr.splitlines()) == 1 and "source checkout" in r.stderr, r.stderr
    assert not (tmp_path / "site").exists()


def test_setup_py_says_when_the_native_extensions_cannot_be_built(tmp_path):
    """With a compiler that does not exist the build succeeds (the extensions are
    optional) and ends saying so, naming the error, and that pure Python works."""
    copy = tmp_path / "src"
    (copy / "generated").mkdir(parents=True)
    for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE", "specs/tables/whatwg/LICENSE"):
        (copy / name).parent.mkdir(parents=True, exist_ok=True)   # pyproject's license-files must exist
        shutil.copy2(ROOT / name, copy / name)
    shutil.copytree(ROOT / "generated" / "native", copy / "generated" / "native")
    env = {**os.environ, "CC": "/nonexistent/cc", "LDSHARED": "/nonexistent/cc -shared"}
    r = subprocess.run([sys.executable, "setup.py", "build_ext", "--build-temp", str(tmp_path / "temp"),
                        "--build-lib", str(tmp_path / "lib")],
                       cwd=copy, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    notes = [line for line in r.stderr.splitlines() if line.startswith("WARNING: encspec:")]
    count = len(list((ROOT / "generated" / "native").glob("*.c")))
    assert len(notes) == 2, r.stderr
    assert f"{count} of {count} native extensions could not be built" in notes[0]
    assert "/nonexistent/cc" in notes[0] and "No such file" in notes[0]
    assert "pure Python" in notes[1]
    assert not list(tmp_path.rglob("_native_*"))


NOT_INSTALLED = {"generated/native", "generated/vectors"}   # C sources setup.py compiles; test data


def test_every_folder_of_package_files_is_installed():
    """Each folder under the package folders is a listed package (setuptools installs
    data by package, and warns about a folder it is not told of), and each of its
    files is a module or matched by its package-data, so the wheel misses nothing."""
    import fnmatch
    tomllib = pytest.importorskip("tomllib", reason="tomllib (Python 3.11+) reads pyproject.toml")
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    packages, data = set(conf["packages"]), conf["package-data"]
    for package, folder in conf["package-dir"].items():
        for path in sorted((ROOT / folder).rglob("*")):
            rel = path.relative_to(ROOT).as_posix()
            if not path.is_file() or "__pycache__" in rel or any(rel.startswith(n + "/") for n in NOT_INSTALLED):
                continue
            sub = path.parent.relative_to(ROOT / folder).parts
            owner = ".".join([package, *sub])
            if owner in conf["package-dir"].keys() - {package}:
                continue   # a package of its own (encspec.generated inside codegen/ when symlinked)
            assert owner in packages, f"{rel}: its folder is not a listed package ({owner})"
            if path.suffix != ".py" and path.suffix not in (".so", ".pyd"):
                assert any(fnmatch.fnmatch(path.name, p) for p in data.get(owner, [])), \
                    f"{rel}: no package-data pattern of {owner} installs it"
