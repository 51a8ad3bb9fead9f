"""The README is a front page for the package index: short, with links that work there
(absolute, into the documentation site built from docs/pages), and a quickstart of
two commands that install into a virtual environment (PEP 668)."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = ROOT / "docs" / "pages"
DOCS_SITE = "https://encspec.readthedocs.io/en/latest/"
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def section(text: str, title: str) -> str:
    """The body of the ``## title`` section."""
    body = text.split(f"\n## {title}\n", 1)[1]
    return re.split(r"\n## ", body, maxsplit=1)[0]


def slug(heading: str) -> str:
    """The anchor MkDocs' toc extension gives a heading."""
    text = re.sub(r"[^\w\s-]", "", heading.replace("`", "").strip().lower())
    return re.sub(r"[-\s]+", "-", text)


def test_readme_is_at_most_15_kb():
    assert len(README.read_bytes()) <= 15_000


def test_readme_links_are_absolute():
    links = LINK.findall(README.read_text("utf-8"))
    assert links
    assert [link for link in links if not link.startswith("https://")] == []


def test_readme_links_into_the_docs_name_existing_pages_and_headings():
    for link in LINK.findall(README.read_text("utf-8")):
        if not link.startswith(DOCS_SITE):
            continue
        page, _, anchor = link[len(DOCS_SITE):].partition("#")
        source = PAGES / (page.removesuffix(".html") + ".md")
        assert source.is_file(), link
        if anchor:
            headings = re.findall(r"^#{1,6} (.+)$", source.read_text("utf-8"), re.MULTILINE)
            assert anchor in {slug(h) for h in headings}, link


def test_quickstart_is_two_commands_in_a_virtual_environment():
    block = section(README.read_text("utf-8"), "Quickstart").split("```sh\n", 1)[1].split("\n```", 1)[0]
    commands = block.splitlines()
    assert len(commands) == 2
    for command in commands:
        assert command.startswith("python3 -m venv .venv && .venv/bin/pip install -e ")
        assert re.search(r"(^|&& )(pip|encspec|python3? -m pytest)\b", command) is None  # nothing outside .venv
    assert "\\x" not in block  # printf's \x escapes are a bash-ism: dash prints them as they are
