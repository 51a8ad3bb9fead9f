"""MkDocs hooks for the encspec documentation (docs/mkdocs.yml, ``hooks:``).

Playground: the screenshot the README showed, web/screenshot.png, is added to the
site as ``playground.png`` (the guide's Playground section shows it).

Charts: `encspec build` writes and checks docs/NAME-codepage.svg and
docs/NAME-automaton.dot beside mkdocs.yml, outside docs_dir (docs/pages/), and
they must stay there.  ``on_files`` adds each to the site as ``charts/NAME``;
``on_page_markdown`` turns a page's link to the file itself (``../NAME`` from
docs/pages/, the link that also works when the Markdown is read on its own)
into ``charts/NAME`` before MkDocs validates links, so a chart that does not
exist still fails a strict build.

README sections: a line ``<!-- README: Quickstart -->`` in a page is replaced by
the body of that ``##`` section of README.md, so the quickstart has one source;
a section that does not exist is an error.

Docstrings: some use Sphinx roles (``:func:`name```), which Markdown renders as
the role's name followed by code; ``on_page_content`` keeps only the code.
"""
from __future__ import annotations

import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

DOCS = Path(__file__).resolve().parent  # docs/
README = DOCS.parent / "README.md"
SCREENSHOT = DOCS.parent / "web" / "screenshot.png"
_INCLUDE = re.compile(r"^<!-- README: (.+?) -->$", re.M)
_CHART_LINK = re.compile(r"\]\(((?:\.\./)+)([A-Za-z0-9_.-]+-(?:codepage\.svg|automaton\.dot))\)")
_ROLE = re.compile(r":(?:func|class|mod|meth|attr|data|exc|obj):<code>(~?)([^<]*)</code>")


def on_files(files, config):
    files.append(File.generated(config, "playground.png", abs_src_path=str(SCREENSHOT)))
    for path in sorted([*DOCS.glob("*-codepage.svg"), *DOCS.glob("*-automaton.dot")]):
        files.append(File.generated(config, f"charts/{path.name}", abs_src_path=str(path)))
    return files


def readme_section(title: str) -> str:
    """The body of the ``## title`` section of README.md, up to the next heading of
    level 1 or 2 outside a fenced code block."""
    lines, body, fenced = README.read_text("utf-8").splitlines(), None, False
    for line in lines:
        if body is None:
            if line.rstrip() == f"## {title}":
                body = []
            continue
        if line.startswith("```"):
            fenced = not fenced
        if not fenced and (line.startswith("# ") or line.startswith("## ")):
            break
        body.append(line)
    if body is None:
        raise PluginError(f"README.md has no section '## {title}' (included by a docs page)")
    return "\n".join(body).strip() + "\n"


def on_page_markdown(markdown, page, config, files):
    markdown = _INCLUDE.sub(lambda m: readme_section(m.group(1)), markdown)
    depth = page.file.src_uri.count("/")

    def to_chart(m):
        if m.group(1).count("../") != depth + 1:  # not a link to docs/ itself
            return m.group(0)
        return "](" + "../" * depth + "charts/" + m.group(2) + ")"
    return _CHART_LINK.sub(to_chart, markdown)


def on_page_content(html, page, config, files):
    return _ROLE.sub(lambda m: "<code>" + (m.group(2).rsplit(".", 1)[-1] if m.group(1) else m.group(2))
                     + "</code>", html)
