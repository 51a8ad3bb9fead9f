"""Run-time use: ``load`` a spec as a codec module, ``register`` the built-ins with codecs."""
from __future__ import annotations

import codecs
import importlib
import types
from functools import lru_cache

from ..spec import registry


BACKENDS = ("auto", "python", "native")


def _instance(name: str, file: str, code, native) -> types.ModuleType:
    """A fresh module object running *code*, its ``_NATIVE`` hook set to *native*."""
    module = types.ModuleType(name)
    module.__file__ = file
    module.__package__ = ""  # no parent package: the module's own `from . import` of its extension fails
    exec(code, module.__dict__)
    module._NATIVE = native
    return module


@lru_cache(maxsize=64)
def _automaton(path: str, sha256: str):
    from ..pipeline import load as load_automaton
    return load_automaton(path)[1]


@lru_cache(maxsize=64)
def _code(path: str, sha256: str):
    from ..emit.python import module_source
    automaton = _automaton(path, sha256)
    file = f"<encspec {automaton.spec_file}>"
    return f"encspec.loaded.{registry.module_name(automaton.name)}", file, compile(module_source(automaton), file, "exec")


@lru_cache(maxsize=64)
def _extension(path: str, sha256: str, build: bool):
    """The spec's compiled extension from the cache (built there first when *build*),
    or None when there is none (and *build* is false)."""
    from ..emit import native_build
    automaton = _automaton(path, sha256)
    if build:
        return native_build.load(automaton)
    found = native_build.cached(automaton)
    if found is None:
        return None
    try:
        return native_build.import_extension(found, found.name.split(".")[0])
    except ImportError:
        return None


@lru_cache(maxsize=64)
def _compiled(path: str, sha256: str, native) -> types.ModuleType:
    """A spec compiled now, decoding with *native* (an extension module or None)."""
    return _instance(*_code(path, sha256), native)


@lru_cache(maxsize=64)
def _twin(module_name: str, native) -> types.ModuleType:
    """A built-in module's twin: the same code, its native hook set to *native*."""
    module = importlib.import_module(module_name)
    code = module.__spec__.loader.get_code(module_name)
    return _instance(module_name, module.__file__, code, native)


def _sha(path) -> str:
    import hashlib
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load(name_or_path: str, backend: str = "auto") -> types.ModuleType:
    """A codec module (decode, encode, tokens, …) for a built-in name or a spec path.

    Built-ins come from generated/ when it matches the spec; anything else is
    compiled now (and cached), so a spec never built still works.

    *backend*: "auto" decodes with the spec's compiled extension when there is
    one (a built-in's, built at install time, or one `encspec build --native`
    put in the cache) and in pure Python otherwise; "python" never uses it;
    "native" always does, compiling it into the cache when it is missing
    (NativeBuildError when it cannot: no C compiler, say).
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r} (available: {', '.join(BACKENDS)})")
    path = registry.find(name_or_path)
    sha = _sha(path)
    if path.parent.resolve() == registry.specs_dir().resolve():
        name = f"encspec.generated.{registry.module_name(path.stem)}"
        try:
            module = importlib.import_module(name)
        except ImportError:
            module = None
        if module is not None and module.SPEC_SHA256 == sha:
            if backend == "python":
                return module if module._NATIVE is None else _twin(name, None)
            if module._NATIVE is not None:
                return module
            # installed without its extension (no compiler then): the cache's, if any
            native = _extension(str(path.resolve()), sha, backend == "native")
            return module if native is None else _twin(name, native)
    key = str(path.resolve())
    return _compiled(key, sha, None if backend == "python" else _extension(key, sha, backend == "native"))


def _search(name: str):
    key = registry.normalise(name)
    if key == "utf_8_optu8":
        from . import optu8
        return optu8.getregentry(load("utf-8"))
    signed = key.endswith("_sig")
    try:
        path = registry.find_builtin(key[:-4] if signed else key)
    except KeyError:
        return None
    module = load(str(path))
    if signed:
        if not module.SIGNATURE:
            return None
        return module.getregentry(signature=True)
    return module.getregentry()


_registered = False


def register() -> None:
    """Make every built-in encoding known to :mod:`codecs`, with the encspec.* error
    handlers and ``utf-8-optu8`` (idempotent).  ``NAME-sig`` variants of encodings
    with a signature write it when encoding (``corrected-utf-8-sig``)."""
    global _registered
    if not _registered:
        from .handlers import register_handlers
        register_handlers()
        codecs.register(_search)
        _registered = True
