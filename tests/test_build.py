"""`encspec build --check`: generated/ always matches the specs and templates."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import without_bytecode

ROOT = Path(__file__).resolve().parents[1]


def tracked_files() -> list[str]:
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines() if line]


@pytest.fixture
def checkout(tmp_path):
    """A copy of the working tree, importable as `encspec` the way a wheel lays it out."""
    copy = tmp_path / "repo"
    for rel in tracked_files():
        src = ROOT / rel
        if src.is_file():
            dst = copy / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
    site = tmp_path / "site"
    site.mkdir()
    (site / "encspec").symlink_to(copy / "codegen")
    for sub in ("generated", "grammars", "specs"):
        (copy / "codegen" / sub).symlink_to(copy / sub)
    return copy, site


def encspec(checkout, *args):
    copy, site = checkout
    env = {**os.environ, "PYTHONPATH": str(site)}
    code = "import sys; from encspec.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=copy, env=env,
                          capture_output=True, text=True)


def test_check_passes_on_the_checked_in_tree(checkout):
    r = encspec(checkout, "build", "--check")
    assert r.returncode == 0, r.stderr
    assert "up to date" in r.stdout


def test_the_copy_is_what_runs(checkout):
    """Guards the fixture: the subprocess imports the copy, not the installed package."""
    copy, site = checkout
    r = subprocess.run([sys.executable, "-c", "import encspec, os; print(os.path.realpath(encspec.__file__))"],
                       env={**os.environ, "PYTHONPATH": str(site)}, capture_output=True, text=True)
    assert r.stdout.strip() == str(copy / "codegen" / "__init__.py")


@pytest.mark.slow  # rebuilds every spec (a minute of CPU): ENCSPEC_SLOW=1 (CI) runs it
def test_check_fails_after_a_spec_edit_and_passes_after_rebuilding(checkout):
    copy, _ = checkout
    spec = copy / "specs" / "utf-8.encspec"
    spec.write_text(spec.read_text().replace('title    "UTF-8 (RFC 3629)"', 'title    "UTF-8!"'))
    r = encspec(checkout, "build", "--check")
    assert r.returncode == 1
    assert r.stderr.splitlines() == [
        "stale: generated/utf_8.py", "stale: generated/tables/utf_8.json",
        "stale: generated/tables/utf_8.describe.json",   # the title changed: describe prints it
        "stale: generated/native/utf_8.c",
        "stale: generated/index.json",   # the title changed: encspec list reads it from the index
        "stale: docs/pages/catalogue.md",   # ... and the manual's catalogue page lists it
        "encspec: generated files are out of date (6); run `encspec build`"]
    assert "corrected_utf_8" not in r.stderr
    assert encspec(checkout, "build").returncode == 0
    assert encspec(checkout, "build", "--check").returncode == 0


@pytest.mark.slow  # rebuilds every spec (a minute of CPU): ENCSPEC_SLOW=1 (CI) runs it
def test_check_fails_after_a_template_edit(checkout):
    copy, _ = checkout
    template = copy / "codegen" / "emit" / "templates" / "python" / "module.py.j2"
    template.write_text(template.read_text().replace("_N_CLASSES = ", "_N_CLASSES = 0 + ", 1))
    r = encspec(checkout, "build", "--check")
    assert r.returncode == 1
    stale = [line for line in r.stderr.splitlines() if line.startswith("stale: ")]
    assert len(stale) == len(list((copy / "specs").glob("*.encspec")))  # every module, no table
    assert all(line.endswith(".py") for line in stale)


@pytest.mark.slow  # rebuilds every spec (a minute of CPU): ENCSPEC_SLOW=1 (CI) runs it
def test_check_covers_the_native_sources(checkout):
    """generated/native/<module>.c (the native backend, compiled by setup.py) is an output too."""
    copy, _ = checkout
    template = copy / "codegen" / "emit" / "native" / "templates" / "ext.c.j2"
    template.write_text(template.read_text().replace("#include <string.h>\n", "#include <string.h>  /* edited */\n", 1))
    (copy / "generated" / "native" / "old.c").write_text("")
    r = encspec(checkout, "build", "--check")
    assert r.returncode == 1
    stale = [line for line in r.stderr.splitlines() if line.startswith("stale: ")]
    # one per spec with a C extension of its own (a code page has none: charmap is its native backend)
    assert len(stale) == len(list((copy / "generated" / "native").glob("*.c"))) - 1 >= 40
    assert all(line.startswith("stale: generated/native/") and line.endswith(".c") for line in stale)
    assert "orphan (no spec generates it): generated/native/old.c" in r.stderr.splitlines()


@pytest.mark.slow  # rebuilds every spec (a minute of CPU): ENCSPEC_SLOW=1 (CI) runs it
def test_check_names_missing_and_orphan_files(checkout):
    copy, _ = checkout
    (copy / "generated" / "wtf_8.py").unlink()
    (copy / "generated" / "tables" / "old.json").write_text("{}")
    r = encspec(checkout, "build", "--check")
    assert r.returncode == 1
    assert "missing: generated/wtf_8.py" in r.stderr.splitlines()
    assert "orphan (no spec generates it): generated/tables/old.json" in r.stderr.splitlines()


def test_build_a_users_spec_into_a_folder(checkout, tmp_path):
    copy, _ = checkout
    user = tmp_path / "mine.encspec"
    user.write_text((copy / "specs" / "utf-8.encspec").read_text().replace("encoding utf-8", "encoding my-utf-8"))
    out = tmp_path / "out"
    r = encspec(checkout, "build", str(user), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert (out / "my_utf_8.py").exists() and (out / "tables" / "my_utf_8.json").exists()
    head = (out / "my_utf_8.py").read_text().splitlines()[:2]
    import hashlib
    assert head[1] == f"# Spec SHA-256: {hashlib.sha256(user.read_bytes()).hexdigest()}"
    assert "Generated by encspec" in head[0] and "do not edit" in head[0]


@pytest.mark.slow  # rebuilds every spec (a minute of CPU): ENCSPEC_SLOW=1 (CI) runs it
def test_generated_files_are_deterministic(checkout):
    copy, _ = checkout
    before = {p: p.read_bytes() for p in without_bytecode(copy / "generated") if p.is_file()}
    for p in (copy / "generated").glob("*.py"):
        if p.name != "__init__.py":
            p.unlink()
    assert encspec(checkout, "build").returncode == 0
    after = {p: p.read_bytes() for p in without_bytecode(copy / "generated") if p.is_file()}
    assert before == after
