"""Stage 3: automaton → files.  One module per backend, one template folder each."""
from __future__ import annotations

from functools import lru_cache

import jinja2

from .. import __version__


@lru_cache(maxsize=None)
def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("encspec.emit", "templates"),
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        autoescape=False,
    )


def render(template: str, **context) -> str:
    return environment().get_template(template).render(version=__version__, **context)
