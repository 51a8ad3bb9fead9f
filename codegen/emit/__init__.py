"""Stage 3: automaton → files.  One module per backend, one template folder each."""
from __future__ import annotations

import json
import re
from functools import cache

import jinja2

from ..version import __version__

# ------------------------------------------------------------------ escaping
# A spec's strings (title, source, reasons, messages) and its file path are
# arbitrary text: every template puts them through one of these filters, so a
# backslash, a quote, '*/', a line break or non-ASCII text cannot end a string
# or a comment early or be read as an escape.

def visible(text) -> str:
    """Line breaks and other unprintable characters as [U+XXXX]: a comment stays on its line."""
    return "".join(c if c.isprintable() else f"[U+{ord(c):04X}]" for c in str(text))


def comment(text) -> str:
    """Text for any comment (/* */, //, #): one line, and no '*/' or '/*' to end or nest it."""
    return re.sub(r"\*(?=/)|/(?=\*)", lambda m: m.group() + " ", visible(text))


def c_comment(text) -> str:
    """A C comment: also no trigraph ('??/' would be a backslash)."""
    return re.sub(r"\?(?=\?)", "? ", comment(text))


def java_comment(text) -> str:
    """A Java comment: javac reads \\uXXXX everywhere, even in comments, so a backslash
    that would start one is doubled; non-ASCII becomes \\uXXXX (read back as itself)."""
    text = re.sub(r"(\\+)(?=u|[^\x00-\x7f])", lambda m: m.group() + ("\\" if len(m.group()) % 2 else ""), comment(text))
    return "".join(c if ord(c) < 0x80 else _utf16_escapes(c) for c in text)


def _utf16_escapes(c: str) -> str:
    units = c.encode("utf-16-be")
    return "".join(f"\\u{units[k] << 8 | units[k + 1]:04x}" for k in range(0, len(units), 2))


_C_ESCAPES = {ord('"'): '\\"', ord("\\"): "\\\\", ord("?"): "\\?", ord("\n"): "\\n", ord("\t"): "\\t",
              ord("\r"): "\\r"}


def c_string(text) -> str:
    """A C string literal (quotes included) holding the text's UTF-8 bytes: ASCII as is,
    everything else as three-digit octal escapes (a hex escape would swallow a following digit)."""
    out = []
    for b in str(text).encode("utf-8"):
        if b in _C_ESCAPES:
            out.append(_C_ESCAPES[b])
        elif 0x20 <= b < 0x7F:
            out.append(chr(b))
        else:
            out.append(f"\\{b:03o}")
    return '"' + "".join(out) + '"'


def rust_string(text) -> str:
    """A Rust string literal (quotes included), ASCII only: other characters as \\u{XXXX}."""
    out = []
    for c in str(text):
        if c in '"\\':
            out.append("\\" + c)
        elif c in "\n\r\t":
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t"}[c])
        elif " " <= c < "\x7f":
            out.append(c)
        else:
            out.append(f"\\u{{{ord(c):x}}}")
    return '"' + "".join(out) + '"'


def js_string(text) -> str:
    """A JavaScript string literal (quotes included), ASCII only (JSON's escapes)."""
    return json.dumps(str(text), ensure_ascii=True)


_JAVA_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def java_string(text) -> str:
    """A Java string literal (quotes included), ASCII only.  Controls are octal escapes,
    not \\uXXXX: javac would turn \\u000a into a line break inside the literal."""
    out = []
    for c in str(text):
        if c in _JAVA_ESCAPES:
            out.append(_JAVA_ESCAPES[c])
        elif " " <= c < "\x7f":
            out.append(c)
        elif ord(c) < 0x80:
            out.append(f"\\{ord(c):03o}")
        else:
            out.append(_utf16_escapes(c))
    return '"' + "".join(out) + '"'


def markdown(text) -> str:
    """Markdown that shows *text* literally, on one line: the characters Markdown could
    read as markup (emphasis, code, links, HTML, entities, tables) are backslash-escaped."""
    return re.sub(r"([\\`*_\[\]<>&|~!#])", r"\\\1", visible(text))


def markdown_code(text) -> str:
    """The inside of a Markdown code span: one line, and no backtick to end it early."""
    return visible(text).replace("`", "'")


def xml_text(text) -> str:
    """XML character data (an element's text or an attribute in double quotes): one line,
    & < > and quotes as entities, nothing XML 1.0 forbids (controls are [U+XXXX])."""
    from xml.sax.saxutils import escape
    return escape(visible(text), {'"': "&quot;"})


def pom_text(text) -> str:
    """Text in a pom.xml element: XML character data that Maven does not interpolate
    (`${` would start a property reference: its brace is spelled [U+007B])."""
    return xml_text(text).replace("${", "$[U+007B]")


def xml_comment(text) -> str:
    """Text inside an XML comment: one line, no `--` (which would be an error there)
    and no `-` at the end (it would make `--->`)."""
    text = visible(text)
    while "--" in text:
        text = text.replace("--", "- -")
    return text + " " if text.endswith("-") else text


FILTERS = {"comment": comment, "visible": visible, "md": markdown, "md_code": markdown_code, "pom": pom_text,
           "xml_comment": xml_comment, "c_comment": c_comment, "java_comment": java_comment, "c_string": c_string,
           "rust_string": rust_string, "js_string": js_string, "java_string": java_string}


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        # native/… lives beside the native backend (emit/native/templates), the rest in emit/templates
        loader=jinja2.ChoiceLoader([
            jinja2.PackageLoader("encspec.emit", "templates"),
            jinja2.PrefixLoader({"native": jinja2.PackageLoader("encspec.emit.native", "templates")}),
        ]),
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        autoescape=False,
    )
    env.filters.update(FILTERS)
    return env


def render(template: str, **context) -> str:
    return environment().get_template(template).render(version=__version__, **context)
