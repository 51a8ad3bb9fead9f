"""Run-time use: ``load`` a spec as a codec module, ``register`` the built-ins with codecs."""
from __future__ import annotations

import codecs
import importlib
import types
from functools import lru_cache

from . import registry


@lru_cache(maxsize=64)
def _compiled(path: str, sha256: str) -> types.ModuleType:
    from .emit.python import module_source
    from .pipeline import load as load_automaton
    _, automaton = load_automaton(path)
    module = types.ModuleType(f"encspec.loaded.{registry.module_name(automaton.name)}")
    module.__file__ = f"<encspec {automaton.spec_file}>"
    exec(compile(module_source(automaton), module.__file__, "exec"), module.__dict__)
    return module


def _sha(path) -> str:
    import hashlib
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load(name_or_path: str, backend: str = "python") -> types.ModuleType:
    """A codec module (decode, encode, tokens, …) for a built-in name or a spec path.

    Built-ins come from generated/ when it matches the spec; anything else is
    compiled now (and cached), so a spec never built still works.
    """
    if backend != "python":
        raise ValueError(f"unknown backend {backend!r} (available: python)")
    path = registry.find(name_or_path)
    sha = _sha(path)
    if path.parent.resolve() == registry.specs_dir().resolve():
        try:
            module = importlib.import_module(f"encspec.generated.{registry.module_name(path.stem)}")
            if module.SPEC_SHA256 == sha:
                return module
        except ImportError:
            pass
    return _compiled(str(path.resolve()), sha)


def _search(name: str):
    key = registry.normalise(name)
    if key == "utf_8_optu8":
        from . import optu8
        return optu8.getregentry()
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
