"""Build the playground: ``web/`` plus the runtime it needs, as a folder any static server serves.

The page runs encspec itself in the browser (Pyodide, a CPython compiled to
WebAssembly), so the site carries wheels of encspec and its pure-Python
dependencies, taken from this installation, and the npm packages' files
(Pyodide, Graphviz) from ``web/node_modules``.  Nothing is fetched once the
site is built: the page loads every file from its own folder.
"""
from __future__ import annotations

import base64
import hashlib
import io
import json
import shutil
import subprocess
import sys
import zipfile
from importlib import metadata
from pathlib import Path

# The page's own files, copied from web/.
PAGE_FILES = ("index.html", "app.js", "worker.js", "graphviz.js", "style.css", "play.py")

# What the page loads from each npm package: (package folder, files, folder in the site).
VENDOR = (
    ("pyodide", ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json", "package.json"), "vendor/pyodide"),
    ("@hpcc-js/wasm-graphviz", ("dist/index.js", "LICENSE", "package.json"), "vendor/graphviz"),
)

# The pure-Python distributions encspec's compiler imports (click and tqdm serve the CLI only).
DEPENDENCIES = ("lark", "jinja2", "markupsafe")

# What a pure wheel leaves out: compiled extensions and their sources, caches.
_SKIP_SUFFIXES = (".so", ".pyd", ".dylib", ".c", ".pyc", ".pyi")

# Fixed time stamps, so the same sources give the same wheel bytes.
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


class BuildError(RuntimeError):
    """The site cannot be built (no web/ folder, no npm, npm failed): one line saying why."""


def source_root() -> Path:
    """The checkout holding ``web/`` beside the package, or BuildError (an installed encspec)."""
    root = Path(__file__).resolve().parents[2]
    if not (root / "web" / "index.html").is_file() or not (root / "pyproject.toml").is_file():
        raise BuildError("the playground is built from a source checkout of encspec "
                         "(its web/ folder is not installed with the package)")
    return root


def ensure_node_modules(web: Path, log=sys.stderr) -> Path:
    """``web/node_modules``, running ``npm ci`` (the versions package-lock.json pins) when missing."""
    modules = web / "node_modules"
    if all((modules / package).is_dir() for package, _, _ in VENDOR):
        return modules
    npm = shutil.which("npm")
    if npm is None:
        raise BuildError(f"{modules} is missing and npm is not installed to fetch it "
                         "(Debian: apt-get install npm; then `npm ci` in web/)")
    print(f"running npm ci in {web}", file=log)
    proc = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=web, capture_output=True, text=True)
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["no message"])[-1]
        raise BuildError(f"npm ci in {web} failed (exit {proc.returncode}): {last}")
    return modules


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def wheel(name: str, version: str, files: dict[str, bytes], metadata_text: str) -> tuple[str, bytes]:
    """A pure-Python wheel (file name, bytes) holding *files* (archive path → bytes)."""
    dist = f"{name.lower().replace('-', '_')}-{version}"
    info = f"{dist}.dist-info"
    files = dict(files)
    files[f"{info}/METADATA"] = metadata_text.encode("utf-8")
    files[f"{info}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: encspec playground\n"
                              b"Root-Is-Purelib: true\nTag: py3-none-any\n")
    record = "".join(f"{path},{_record_hash(data)},{len(data)}\n" for path, data in sorted(files.items()))
    files[f"{info}/RECORD"] = (record + f"{info}/RECORD,,\n").encode("utf-8")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(files):
            entry = zipfile.ZipInfo(path, _ZIP_TIME)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            z.writestr(entry, files[path])
    return f"{dist}-py3-none-any.whl", buf.getvalue()


def _wanted(path: Path) -> bool:
    return "__pycache__" not in path.parts and path.suffix not in _SKIP_SUFFIXES and path.is_file()


def _tree(folder: Path, prefix: str) -> dict[str, bytes]:
    """Every file under *folder* a pure wheel keeps, as ``prefix/relative path``."""
    return {f"{prefix}/{p.relative_to(folder).as_posix()}": p.read_bytes()
            for p in sorted(folder.rglob("*")) if _wanted(p)}


def encspec_wheel(root: Path) -> tuple[str, bytes]:
    """encspec without its C extensions and generated modules: the compiler, analyses,
    templates, grammar and built-in specs (with their tables), laid out as installed."""
    from ..version import __version__
    files = _tree(root / "codegen", "encspec")
    files.update(_tree(root / "specs", "encspec/specs"))
    files.update(_tree(root / "grammars", "encspec/grammars"))
    meta = (f"Metadata-Version: 2.1\nName: encspec\nVersion: {__version__}\n"
            "Summary: encspec for the playground (pure Python, no native backend)\n")
    return wheel("encspec", __version__, files, meta)


def dependency_wheel(name: str) -> tuple[str, bytes]:
    """A pure wheel of the installed distribution *name* (its compiled speedups left out:
    markupsafe then uses its pure-Python fallback)."""
    try:
        dist = metadata.distribution(name)
    except metadata.PackageNotFoundError:
        raise BuildError(f"{name} is not installed (pip install {name})") from None
    top = set()
    for f in dist.files or ():
        parts = Path(f).parts
        if len(parts) > 1 and not parts[0].endswith((".dist-info", ".egg-info")) and parts[0] != "..":
            top.add(parts[0])
    files = {}
    for package in sorted(top):
        folder = Path(str(dist.locate_file(package)))  # a Path for an installed distribution
        if folder.is_dir():
            files.update(_tree(folder, package))
    if not files:
        raise BuildError(f"{name}: no package files found in its installation")
    return wheel(dist.metadata["Name"], dist.version, files, dist.read_text("METADATA") or "")


def build(out: Path, log=sys.stderr) -> list[Path]:
    """Write the site into *out* (created); the files written."""
    root = source_root()
    web = root / "web"
    modules = ensure_node_modules(web, log)
    written = []

    def put(rel: str, data: bytes) -> None:
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        written.append(path)

    for name in PAGE_FILES:
        put(name, (web / name).read_bytes())
    for package, files, target in VENDOR:
        for rel in files:
            source = modules / package / rel
            if not source.is_file():
                raise BuildError(f"{source} is missing: run `npm ci` in {web}")
            put(f"{target}/{Path(rel).name}", source.read_bytes())
    wheels = [encspec_wheel(root)] + [dependency_wheel(name) for name in DEPENDENCIES]
    for name, data in wheels:
        put(f"wheels/{name}", data)
    put("wheels/index.json", json.dumps([name for name, _ in wheels], indent=1).encode("utf-8"))
    return written
