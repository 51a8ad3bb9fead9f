"""The native backend: the C export's automaton inside a CPython extension module.

``ext_source(a)`` is one self-contained C file, ``_native_<module>``: the C
export's ``NAME.h`` and ``NAME.c`` (``encspec export SPEC --lang c``), verbatim,
followed by the glue of ``templates/native/ext.c.j2``.  No table is emitted
twice: the glue reads the export's tables (byte classes, transitions, digit
operations, actions) and derives its flat fast-path table from them when the
module is imported.

The extension decodes for the decoder core's ``_decode`` loop (the generated
module's ``_NATIVE`` hook, encspec/runtime/core.py): it applies replace, ignore,
surrogateescape and backslashreplace itself, exactly as CPython's handlers do,
and only while those names are CPython's handlers (the core passes "strict"
otherwise); every other problem, and every token more input could change, it
leaves to the core, which calls the handler (see the template).  Counted forms
are decoded in C too (the export's ``NAME_counted_K``, with the caller's limit,
the module's ``COUNTED_LIMIT``, as ``decode``'s optional 7th argument), and a
code point wider than 64 bits comes out of a code point list as an int built
from the export's ``NAME_wide_value`` bytes.  ``scan(data, pos, final, limit)``
is the core's ``_scan`` in C.
``generated/native/<module>.c`` holds the source of every built-in spec
(``encspec build``); setup.py compiles them as optional extensions,
``codegen/emit/native_build.py`` compiles a user's spec into a cache.
"""
from __future__ import annotations

import hashlib
import re

from ..version import __version__
from ..automaton import Automaton
from . import c_target, render

try:  # the export helpers (renamed from native.py)
    from . import export_common
except ImportError:  # pragma: no cover - before the rename
    from . import native as export_common  # type: ignore[no-redef]

# The source names its own digest (SOURCE_SHA256): the SHA-256 of the source
# with this placeholder in its place, so a build can be matched to its source.
DIGEST_PLACEHOLDER = "0" * 64
_DIGEST_LINE = re.compile(r'(#define NX_SOURCE_SHA256 ")([0-9a-f]{64})(")')


def module_name(a: Automaton) -> str:
    """utf-8 → _native_utf_8: the extension next to generated/utf_8.py."""
    return "_native_" + export_common.module_name(a)


def source_digest(text: str) -> str:
    """The digest a source declares for itself (its text with the digest zeroed)."""
    return hashlib.sha256(_DIGEST_LINE.sub(lambda m: m[1] + DIGEST_PLACEHOLDER + m[3], text, count=1)
                          .encode("utf-8")).hexdigest()


def declared_digest(text: str) -> str | None:
    m = _DIGEST_LINE.search(text)
    return m[2] if m else None


def ext_source(a: Automaton) -> str:
    """The extension's C source (deterministic).  Raises SpecError where the C export
    refuses the spec (a counted form it cannot decode without big integers)."""
    files = c_target.files(a)
    ctx = export_common.common_context(a)
    ctx.update(export_common.width_context(a))
    mod = ctx["mod"]
    include = f'#include "{mod}.h"\n'
    body = files[f"{mod}.c"]
    assert include in body
    ctx.update(
        ext=module_name(a),
        generator=f"encspec {__version__}",
        export_h=files[f"{mod}.h"].rstrip("\n"),
        export_c=body.replace(include, f"/* {mod}.h is above */\n", 1).rstrip("\n"),
        has_plans=bool(a.extensions),
        digest=DIGEST_PLACEHOLDER,
    )
    text = render("native/ext.c.j2", **ctx)
    return text.replace(f'#define NX_SOURCE_SHA256 "{DIGEST_PLACEHOLDER}"',
                        f'#define NX_SOURCE_SHA256 "{source_digest(text)}"', 1)
