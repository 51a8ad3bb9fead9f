"""encspec: compile declarative encoding specs into decoders, encoders and tables.

The pipeline is the layout: ``parse`` (spec text → model) → ``automaton``
(model → byte-class DFA with actions) → ``emit`` (templates per backend) and
``analyse`` (describe, properties).
"""
from .version import __version__  # noqa: F401


def load(name_or_path: str, backend: str = "auto"):
    """A codec module for a built-in encoding name or a ``.encspec`` path.

    *backend*: "auto" (the compiled extension when there is one), "python" or
    "native" (see :func:`encspec.codec.load`)."""
    from .codec import load as _load
    return _load(name_or_path, backend)


def register(*names_or_paths) -> None:
    """Make encodings known to :mod:`codecs` (``codecs.lookup("wtf-8")``, ``open(...,
    encoding=...)``): every built-in with no argument, else the built-ins named and the
    user specs given by path (their ``encoding`` name and aliases become codec names).
    Idempotent; an unknown name raises LookupError, a bad spec SpecError (see
    :func:`encspec.codec.register`)."""
    from .codec import register as _register
    _register(*names_or_paths)


def codec_info(name_or_path, signature: bool = False, backend: str = "auto"):
    """The :class:`codecs.CodecInfo` of a codec name or a spec path, registering nothing:
    for ``codecs.register`` by hand, or the ``NAME-sig`` variant with *signature*
    (see :func:`encspec.codec.codec_info`)."""
    from .codec import codec_info as _codec_info
    return _codec_info(name_or_path, signature, backend)


def decode_or_fallback(data, spec="utf-8", fallback="cp1252", errors="strict", allow_reserved=True):
    """``(text, used)``: *data* decoded with *spec* if valid there, else all of it with the
    Python codec *fallback* (see :mod:`encspec.io.fallback`)."""
    from .io.fallback import decode_or_fallback as _decode_or_fallback
    return _decode_or_fallback(data, spec, fallback, errors, allow_reserved)
