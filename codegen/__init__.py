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
    from .runtime.codec import load as _load
    return _load(name_or_path, backend)


def register() -> None:
    """Register every built-in encoding with :mod:`codecs` (``codecs.lookup("wtf-8")``)."""
    from .runtime.codec import register as _register
    _register()
