"""Compiling the native backend of a spec: ``encspec build --native SPEC`` and
``encspec.load(SPEC, backend="native")``.

The extension's source (``emit/native/ext.py``) is compiled with the compiler and
flags CPython was built with (``sysconfig``; ``$CC``, ``$CFLAGS`` and ``$LDFLAGS``
are honoured as setuptools honours them) into a cache folder,
``$XDG_CACHE_HOME/encspec/native/KEY/`` (else ``~/.cache/...``), KEY being the
SHA-256 of the spec's hash, encspec's version, the interpreter's extension
suffix, the source's digest, the compile and link commands (so the flags) and
the compiler's resolved path and ``--version`` output: a second build of the
same spec with the same compiler and flags is a lookup, and a build with other
flags (a sanitizer build) gets a folder of its own.
A folder appears whole (built beside it, then renamed) or not at all.

The built-in specs' extensions are compiled at install time by setup.py from
``generated/native/`` and imported as ``encspec.generated._native_<module>``.
"""
from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import shlex
import shutil
import subprocess
import sysconfig
import tempfile
import types
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ...version import __version__


class NativeBuildError(RuntimeError):
    """The native backend cannot be built (no compiler, a compiler error, a spec the C export refuses).

    The message is one line; ``details`` holds the compiler's own output, if any."""

    def __init__(self, message: str, details: str = ""):
        super().__init__(message)
        self.details = details


@dataclass(frozen=True)
class Built:
    path: Path          # the extension file
    module: str         # its module name, _native_<module>
    cached: bool        # True when an earlier build was reused


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "encspec" / "native"


def ext_suffix() -> str:
    return sysconfig.get_config_var("EXT_SUFFIX") or importlib.machinery.EXTENSION_SUFFIXES[0]


def cache_key(spec_sha256: str, source_digest: str) -> str:
    """The cache folder's name: what the extension is built from and how.

    The commands (so ``$CC``, ``$CFLAGS``, ``$LDFLAGS`` and CPython's own flags) and the
    compiler's identity are part of it: an extension built with other flags (a sanitizer
    build) or another compiler may not load where this one is asked for."""
    commands = compile_command(Path("SOURCE.c"), Path("TARGET" + ext_suffix()))
    text = "\n".join([spec_sha256, __version__, ext_suffix(), source_digest,
                      *(shlex.join(cmd) for cmd in commands), compiler_identity(commands[0][0])])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def compiler_identity(cc: str) -> str:
    """The compiler *cc* as found on PATH and what its ``--version`` says ("" when it cannot
    be run: the build then fails and names it)."""
    found = shutil.which(cc)
    if found is None:
        return f"{cc}\n(not found)"
    try:
        st = os.stat(found)
    except OSError:
        return f"{found}\n(cannot stat)"
    return _version_output(os.path.realpath(found), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=16)
def _version_output(path: str, _mtime_ns: int, _size: int) -> str:
    """*path* and its ``--version`` output, once per process and compiler file."""
    try:
        proc = subprocess.run([path, "--version"], check=False, capture_output=True, text=True, errors="replace",
                              timeout=60, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return f"{path}\n(cannot run)"
    return f"{path}\n{proc.returncode}\n{proc.stdout}{proc.stderr}"


def _split(var: str) -> list[str]:
    return shlex.split(sysconfig.get_config_var(var) or "")


def compile_command(source: Path, target: Path) -> list[list[str]]:
    """The commands that turn *source* into the extension *target*: compile, then link."""
    cc = shlex.split(os.environ["CC"]) if os.environ.get("CC") else _split("CC") or ["cc"]
    cflags = shlex.split(os.environ.get("CFLAGS", "")) or []
    obj = target.with_suffix(".o")
    include = sysconfig.get_paths()["include"]
    flags = _split("CFLAGS") + cflags + _split("CCSHARED")
    if not any(f.startswith("-O") for f in flags):  # as setuptools would build it, but optimised
        flags.append("-O2")
    compile_ = cc + flags + [f"-I{include}", "-c", str(source), "-o", str(obj)]
    ldshared = _split("LDSHARED") or cc + ["-shared"]
    if os.environ.get("CC") and ldshared:  # as setuptools does: $CC replaces the compiler in LDSHARED
        ldshared = cc + ldshared[1:]
    link = ldshared + shlex.split(os.environ.get("LDFLAGS", "")) + [str(obj), "-o", str(target)]
    return [compile_, link]


def build(a, source: str | None = None) -> Built:
    """Compile the extension of automaton *a* into the cache (or find it there)."""
    from ...spec.diagnostics import SpecError
    from .ext import ext_source, module_name, source_digest
    if source is None:
        try:
            source = ext_source(a)
        except SpecError as e:
            raise NativeBuildError(f"{a.name}: no native backend: {e.message}") from None
    name = module_name(a)
    folder = cache_root() / cache_key(a.spec_sha256, source_digest(source))
    target = folder / (name + ext_suffix())
    if target.is_file():
        return Built(target, name, True)
    cache_root().mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".build-", dir=cache_root()))
    try:
        src = work / f"{name}.c"
        src.write_text(source, "utf-8")
        for cmd in compile_command(src, work / (name + ext_suffix())):
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True)
            except OSError as e:
                raise NativeBuildError(f"{a.name}: cannot run the C compiler {cmd[0]!r}: {e.strerror}") from None
            if proc.returncode != 0:
                raise NativeBuildError(f"{a.name}: the C compiler failed (exit {proc.returncode}): {shlex.join(cmd)}",
                                       (proc.stderr or proc.stdout).strip())
        (work / (name + ext_suffix())).with_suffix(".o").unlink(missing_ok=True)
        try:
            work.rename(folder)
        except OSError:  # built meanwhile by another process: use that one
            if not target.is_file():
                raise
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)
    return Built(target, name, False)


def import_extension(path: Path, name: str) -> types.ModuleType:
    """Load a compiled extension from *path* (its init function is PyInit_<name>)."""
    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    spec = importlib.util.spec_from_file_location(name, str(path), loader=loader)
    if spec is None:  # never, given a loader; but say so rather than fail inside importlib
        raise ImportError(f"cannot load {path} as {name}", name=name, path=str(path))
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def cached(a) -> Path | None:
    """The cached extension of *a*, if one was built (nothing is compiled)."""
    from ...spec.diagnostics import SpecError
    from .ext import ext_source, module_name, source_digest
    try:
        source = ext_source(a)
    except SpecError:
        return None
    target = cache_root() / cache_key(a.spec_sha256, source_digest(source)) / (module_name(a) + ext_suffix())
    return target if target.is_file() else None


def load(a) -> types.ModuleType:
    """The extension of automaton *a*: built (or found) in the cache, then imported."""
    built = build(a)
    try:
        return import_extension(built.path, built.module)
    except ImportError as e:
        raise NativeBuildError(f"{a.name}: the native extension {built.path} does not load: {e}") from None
