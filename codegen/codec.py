"""Run-time use: ``load`` a spec as a codec module, ``register`` built-ins and user specs with codecs."""
from __future__ import annotations

import codecs
import importlib
import importlib.abc
import os
import types
from functools import lru_cache
from pathlib import Path

from .spec import registry

BACKENDS = ("auto", "python", "native")


def _instance(name: str, file: str, code, native, python_only: bool = False) -> types.ModuleType:
    """A fresh module object running *code*, its ``_NATIVE`` hook set to *native*
    (when None, a single-byte spec's charmap hook stays, unless *python_only*)."""
    module = types.ModuleType(name)
    module.__file__ = file
    module.__package__ = ""  # no parent package: the module's own `from . import` of its extension fails
    module.__dict__["_PYTHON_ONLY"] = python_only  # read by the core before it makes its charmap hook
    if native is not None or python_only:
        # the core's hook, in place before the core runs: what it derives from the hook
        # at import (whether the extension encodes, its memo's width) must see it
        module.__dict__["_NATIVE_GIVEN"] = native
    exec(code, module.__dict__)
    return module


class SpecFileWarning(UserWarning):
    """What a spec's files hold that no form reaches (a table line), told once per spec
    by :func:`load` with its location (``encspec check`` shows the same)."""


@lru_cache(maxsize=64)
def _automaton(path: str, sha256: str):
    import warnings

    from .pipeline import load as load_automaton
    spec, automaton = load_automaton(path)
    for w in spec.warnings:
        warnings.warn(w.render(), SpecFileWarning, stacklevel=2)
    return automaton


@lru_cache(maxsize=64)
def _code(path: str, sha256: str) -> tuple[str, str, types.CodeType]:
    from .emit.python import module_source
    automaton = _automaton(path, sha256)
    file = f"<encspec {automaton.spec_file}>"
    return f"encspec.loaded.{registry.module_name(automaton.name)}", file, compile(module_source(automaton), file, "exec")


@lru_cache(maxsize=64)
def _extension(path: str, sha256: str, build: bool):
    """The spec's compiled extension from the cache (built there first when *build*),
    or None when there is none (and *build* is false)."""
    from .emit.native import build as native_build
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
def _compiled(path: str, sha256: str, native, python_only: bool = False) -> types.ModuleType:
    """A spec compiled now, decoding with *native* (an extension module or None)."""
    return _instance(*_code(path, sha256), native, python_only)


@lru_cache(maxsize=64)
def _twin(module_name: str, native) -> types.ModuleType:
    """A built-in module's twin: the same code, its native hook set to *native*
    (None: pure Python)."""
    module = importlib.import_module(module_name)
    loader = module.__spec__.loader if module.__spec__ is not None else None
    if not isinstance(loader, importlib.abc.InspectLoader):  # a generated module is always a source file
        raise ImportError(f"{module_name} has no source code to run again", name=module_name)
    code = loader.get_code(module_name)
    return _instance(module_name, module.__file__ or "", code, native, native is None)


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
    sha = registry.file_sha256(path)
    if path.parent.resolve() == registry.specs_dir().resolve():
        name = f"encspec.generated.{registry.module_name(path.stem)}"
        try:
            module = importlib.import_module(name)
        except ImportError:
            module = None
        if module is not None and module.SPEC_SHA256 == sha:
            if backend == "python":
                return module if module.native() is None else _twin(name, None)
            if module.native() is not None:
                return module
            # installed without its extension (no compiler then): the cache's, if any
            native = _extension(str(path.resolve()), sha, backend == "native")
            return module if native is None else _twin(name, native)
    key = str(path.resolve())
    if backend == "python":
        return _compiled(key, sha, None, True)
    module = _compiled(key, sha, None)
    if module.__dict__.get("_CHARMAP") is not None:
        return module  # single-byte: CPython's charmap codec is its native backend
    return _compiled(key, sha, _extension(key, sha, backend == "native"))


# The encyclopedia article: "UTF-8-BOM and UTF-8-NOBOM are sometimes used to refer
# to text files which respectively contain and lack a byte order mark (BOM). In
# Japan especially, UTF-8 encoding without BOM is sometimes called "UTF-8N"."
# So the codec names of the utf-8-bom spec write the BOM (its module's encode does
# only with signature=True); utf-8-nobom, utf8-nobom, utf-8n and utf8n are aliases
# of the utf-8 spec (specs/utf-8.encspec), plain UTF-8.
SIGNED = ("utf-8-bom",)  # specs whose every codec name writes the signature


def _renamed(info: codecs.CodecInfo, name: str) -> codecs.CodecInfo:
    return codecs.CodecInfo(info.encode, info.decode, info.streamreader, info.streamwriter,
                            info.incrementalencoder, info.incrementaldecoder, name=name)


def _builtin(key: str, backend: str = "auto", enabled=None):
    """The CodecInfo of a built-in codec name (normalised *key*), or None.  With
    *enabled* (a set of spec paths, or None for all) only those specs' names answer."""
    def ok(path: Path) -> bool:
        return enabled is None or path.resolve() in enabled
    if key == "utf_8_optu8":
        path = registry.find_builtin("utf-8")
        if not ok(path):
            return None
        from .runtime import optu8
        return optu8.getregentry(load(str(path), backend))
    # the whole name first: utf-8-sig is a name of its own (utf-8-bom's alias, CPython's name)
    for suffix, signed in (("", False), ("_sig", True), ("_pua", False)):
        if suffix and not key.endswith(suffix):
            continue
        try:
            path = registry.find_builtin(key[:len(key) - len(suffix)])
        except KeyError:
            continue
        if not ok(path):
            continue
        module = load(str(path), backend)
        if suffix == "_pua":
            if path.stem != "corrected-utf-8":
                return None
            from .runtime import private_use
            return private_use.getregentry(module)
        if path.stem == "utf-8-optu8-strict":
            from .runtime import optu8
            return optu8.getregentry(module, optu8.STRICT_NAME, reversible=True) if not signed else None
        if signed or path.stem in SIGNED:
            if not module.SIGNATURE:
                return None
            return _renamed(module.getregentry(signature=True), module.NAME + ("-sig" if signed else ""))
        return module.getregentry()
    return None


def _user(key: str):
    """The CodecInfo of a registered user spec's codec name (normalised *key*), or None."""
    if key in _user_names:
        return _user_names[key][1].getregentry()
    if key.endswith("_sig") and key[:-4] in _user_names:
        module = _user_names[key[:-4]][1]
        if module.SIGNATURE:
            return module.getregentry(signature=True)
    return None


def _search(name: str):
    key = registry.normalise(name)
    info = _user(key)
    return info if info is not None else _builtin(key, enabled=_enabled)


_registered = False
_enabled: set[Path] | None = set()     # built-in spec paths registered; None: all of them
_user_names: dict[str, tuple[Path, types.ModuleType]] = {}   # normalised codec name → (spec, module)


def _is_path(name_or_path) -> bool:
    """A spec path rather than a codec name: a path object, or a string ending in
    ``.encspec`` or holding a folder separator (a name never does)."""
    if isinstance(name_or_path, os.PathLike):
        return True
    return name_or_path.endswith(".encspec") or "/" in name_or_path or os.sep in name_or_path


def _unknown(name: str) -> LookupError:
    return LookupError(f"unknown encoding {name!r} (built-in: {', '.join(registry.builtin_names())}; "
                       "give a spec of your own by its path, NAME.encspec)")


def register(*names_or_paths: str) -> None:
    """Make encodings known to :mod:`codecs`, with the encspec.* error handlers
    (idempotent: registering again is harmless).

    With no argument every built-in encoding is registered, with ``utf-8-optu8``
    and ``utf-8-optu8-strict``.  Otherwise each argument is a built-in's name or
    alias (or any of its codec names: all of them are registered), or the path
    of a spec of your own, whose ``encoding`` name and aliases become codec
    names.  ``NAME-sig`` variants of encodings with a signature write it when
    encoding (``corrected-utf-8-sig``); so does ``utf-8-bom`` itself, while
    ``utf-8-nobom`` and ``utf-8n`` are plain UTF-8.  ``corrected-utf-8-pua``
    maps C1 controls and surrogates to private use and back.

    Everything is checked before anything is registered: an unknown name raises
    LookupError, a bad spec SpecError, and a user spec's codec name that a
    built-in or another registered spec already has ValueError.  Python caches
    every codec it finds, so a spec registered again after a change keeps the
    CodecInfo a lookup already returned for it."""
    global _registered, _enabled
    builtins: set[Path] = set()
    users: dict[str, tuple[Path, types.ModuleType]] = {}
    for item in names_or_paths:
        if not isinstance(item, (str, os.PathLike)):
            raise TypeError(f"register() takes encoding names and spec paths, not {type(item).__name__}")
        if not _is_path(item):
            try:
                path = _builtin_spec(registry.normalise(item))
            except KeyError:
                raise _unknown(item) from None
            builtins.add(path.resolve())
            continue
        item = os.fspath(item)
        path = registry.find(item).resolve()     # SpecError: no such file, a folder
        if path.parent == registry.specs_dir().resolve():
            builtins.add(path)                    # a built-in's own spec file
            continue
        module = load(str(path))                  # SpecError: a bad spec
        for codec_name in (module.NAME, *module.ALIASES):
            key = registry.normalise(codec_name)
            if _taken(key):
                raise ValueError(f"{item}: codec name {codec_name!r} is a built-in codec's (encspec's or Python's); "
                                 "give the spec a name of its own")
            other = users.get(key) or _user_names.get(key)
            if other is not None and other[0] != path:
                raise ValueError(f"{item}: codec name {codec_name!r} is already registered for {other[0]}")
            users[key] = (path, module)
    if not names_or_paths:
        _enabled = None
    elif _enabled is not None:
        _enabled |= builtins
    _user_names.update(users)
    if not _registered:
        from .runtime.handlers import register_handlers
        register_handlers()
        codecs.register(_search)
        _registered = True


def _builtin_spec(key: str) -> Path:
    """The built-in spec behind a normalised codec name (its -sig, -pua, … names too); KeyError if none."""
    if key == "utf_8_optu8":
        return registry.find_builtin("utf-8")
    for suffix in ("_sig", "_pua", ""):
        if key.endswith(suffix):
            try:
                return registry.find_builtin(key[:len(key) - len(suffix)])
            except KeyError:
                pass
    raise KeyError(key)


def _taken(key: str) -> bool:
    """Whether a built-in codec name (encspec's or Python's own) is normalised *key*."""
    import encodings
    try:
        _builtin_spec(key)
        return True
    except KeyError:
        return encodings.search_function(key) is not None


def codec_info(name_or_path: str, signature: bool = False, backend: str = "auto") -> codecs.CodecInfo:
    """The :class:`codecs.CodecInfo` of a built-in codec name, a registered user
    spec's codec name, or a spec path, without registering anything.

    Its ``name`` is the codec's (the spec's ``encoding`` name); ``encode(str,
    errors)`` and ``decode(bytes, errors)`` return ``(result, length consumed)``;
    ``incrementalencoder``, ``incrementaldecoder``, ``streamreader`` and
    ``streamwriter`` are the module's classes.  With *signature* the ``NAME-sig``
    variant, whose encoders write the spec's signature first (ValueError when it
    has none).  *backend* as for :func:`load`.  An unknown name raises LookupError."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r} (available: {', '.join(BACKENDS)})")
    if _is_path(name_or_path):
        module = load(os.fspath(name_or_path), backend)
        if signature and not module.SIGNATURE:
            raise ValueError(f"{module.NAME} has no signature, so no {module.NAME}-sig codec")
        return module.getregentry(signature=signature)
    key = registry.normalise(name_or_path)
    if key in _user_names:
        path, module = _user_names[key]
        if backend != "auto":
            module = load(str(path), backend)
        if signature and not module.SIGNATURE:
            raise ValueError(f"{module.NAME} has no signature, so no {module.NAME}-sig codec")
        return module.getregentry(signature=signature)
    info = _builtin(key + "_sig" if signature else key, backend)
    if info is None:
        if signature and _builtin(key, backend) is not None:
            raise ValueError(f"{name_or_path} has no signature variant")
        raise _unknown(name_or_path)
    return info


def load_named(name_or_path: str, backend: str = "auto") -> tuple[types.ModuleType, bool]:
    """The module behind a codec name, and whether that name writes the signature.

    So that a name means one thing everywhere, the command line reads it as
    :func:`codecs.lookup` does: ``NAME-sig`` is NAME's module with the signature
    written, and so is every name of a SIGNED spec (``UTF-8-BOM``); a spec path and
    any other name write it only when asked (``--signature``)."""
    if not _is_path(name_or_path):
        key = registry.normalise(name_or_path)
        try:  # the whole name first: utf-8-sig is a name of its own (utf-8-bom's alias)
            found = registry.find_builtin(key)
        except KeyError:
            found = None
        if found is not None:
            return load(name_or_path, backend), found.stem in SIGNED
        if key.endswith("_sig"):
            try:
                path = registry.find_builtin(key[:-4])
            except KeyError:
                path = None
            if path is not None:
                module = load(str(path), backend)
                if module.SIGNATURE:
                    return module, True
    return load(os.fspath(name_or_path), backend), False
