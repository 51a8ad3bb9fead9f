"""Stage 1: spec text → :class:`~encspec.spec.model.Spec`.

lark parses with ``grammars/encspec.lark`` (syntax only); a Transformer builds
statements and model pieces, each with its position, refusing only a literal that
denotes nothing (an empty range, a number wider than the limit, a bit pattern whose
x bits are not the low-order ones, a NUL in a string); :func:`~.passes.resolve`
then runs the named checks of ``spec/passes/`` in their fixed order, every error
with the position of the offending token.
"""
from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from pathlib import Path

import lark
from lark import Token, Transformer_NonRecursive, v_args

from .diagnostics import Loc, SpecError
from .expr import (
    CONST_BITS,
    CONST_DIGITS,
    BinOp,
    Int,
    Var,
)
from .model import (
    Claim,
    CodeRange,
    DigitSet,
    Spec,
    paused_gc,
)
from .passes import resolve

_WORDS = {
    "HEXBYTE": "a hex byte (ED)", "HEXUNIT": "a hex code unit (D800)", "BITS": "a bit pattern (10xxxxxx)",
    "BYTE_ORDER": "'big-endian' or 'little-endian'",
    "REASON_KIND": "'invalid-start', 'invalid-continuation', 'unexpected-end', 'truncated-unit', 'unmapped' or "
                   "'unencodable'",
    "SPAN_KIND": "'maximal-subpart', 'one-unit' or 'through-failing-byte'",
    "CODEPOINT": "a code point (U+0080)", "NAME": "a name", "ALIAS": "a name (1252, latin-1)",
    "INT": "a number",
    "STRING": 'a quoted string', "MAPPING": "'direct' or 'packed'",
    "COMBINATOR": "'surrogate-pair'", "_ARROW": "'->' (a mode)", "SHORTEST": "'shortest'", "SEVERITY": "'error' or 'warning'",
}


@lru_cache(maxsize=1)
def _parser() -> lark.Lark:
    grammar = resources.files("encspec.grammars").joinpath("encspec.lark").read_text("utf-8")
    return lark.Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=False)


def _describe_terminal(name: str) -> str:
    if name in _WORDS:
        return _WORDS[name]
    if name == "$END":
        return "end of file"
    try:
        term = _parser().get_terminal(name)
        return repr(term.pattern.value) if term.pattern.type == "str" else name
    except KeyError:
        return name


# Token families named once in "expected …" lists: every statement keyword, every
# form option; the byte positions only when the list is long anyway.
_OPTIONS = frozenset({"MAPPING", "MIN", "AT", "EQUAL", "COMBINE", "RANGE", "MAX", "BYTE_ORDER", "TABLE", "_ARROW"})
_POSITIONS = frozenset({"HEXBYTE", "HEXUNIT", "BITS", "NAME", "LESSTHAN"})


@lru_cache(maxsize=1)
def _statement_starters() -> frozenset:
    return frozenset(_parser().parse_interactive("").accepts()) - {"$END"}


def _acceptable(e: lark.exceptions.UnexpectedInput) -> set:
    """What the parser takes here.  lark's own list is the LALR look-ahead, which
    can name tokens that would fail one step later (a code point after 'form 1')."""
    ip = getattr(e, "interactive_parser", None)
    if ip is not None:
        return set(ip.accepts())
    return set(getattr(e, "expected", None) or getattr(e, "allowed", None) or ())


def _expected(names) -> str:
    names = set(names)
    offered = set(names)  # a keyword can be both a statement and a form option ('table')
    groups = []
    for family, word in ((_OPTIONS, "a form option"), (_statement_starters(), "a statement")):
        if family and family <= offered:
            names -= family
            groups.append(word)
    if _POSITIONS <= names and len(names) + len(groups) > 6:
        names -= _POSITIONS
        groups.insert(0, "a byte position")
    words = sorted({_describe_terminal(n) for n in names if n != "$END"}, key=lambda w: (w[0] != "'", w))
    words += groups + (["end of file"] if "$END" in names else [])
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _shown(tok: Token, text: str) -> str:
    """The unexpected token as the user wrote it: a word the lexer cut short
    (the '0' of 0xxxxxxx where no bit pattern fits) is shown whole."""
    if tok.type == "$END":
        return "end of file"
    word = str(tok)
    if word[-1:].isalnum() and tok.end_pos is not None:
        word += re.findall(r"^[0-9A-Za-z_]*", text[tok.end_pos:])[0]
    return repr(word)


def _loc(tok_or_meta) -> Loc:
    return Loc(tok_or_meta.line, tok_or_meta.column)


def _cp(tok: Token) -> int:
    digits = tok[2:].lstrip("0") or "0"
    if len(digits) > CONST_BITS // 4 + 1 or int(digits, 16).bit_length() > CONST_BITS:  # length first: no huge int
        raise SpecError(f"a code point wider than {CONST_BITS} bits, the limit for a number in a spec", _loc(tok))
    return int(digits, 16)


def _cps(toks: list[Token]) -> int | tuple[int, ...]:
    """One code point, or a sequence of them (each a Unicode scalar value, at its token if not)."""
    if len(toks) == 1:
        return _cp(toks[0])
    out = []
    for tok in toks:
        cp = _cp(tok)
        if cp > 0x10FFFF or 0xD800 <= cp <= 0xDFFF:
            raise SpecError(f"{tok} in a sequence is not a Unicode scalar value (U+0000..U+10FFFF, "
                            "no surrogates)", _loc(tok))
        out.append(cp)
    return tuple(out)


class _Build(Transformer_NonRecursive):
    """Parse tree → plain tuples and model pieces; names are resolved later.

    Non-recursive (lark's Transformer recurses once per tree level), so a count
    written as a sum of thousands of terms is only long, not a RecursionError."""

    def __default__(self, data, children, meta):  # pragma: no cover - grammar is total
        raise SpecError(f"internal: unhandled rule {data}", _loc(meta))

    def STRING(self, tok: Token) -> Token:
        """A string holds any character but a quote, a line break or NUL: C (the C export, the
        native extension) reads a string up to its first NUL, so one would cut a reason short."""
        k = tok.find("\x00")
        if k >= 0:
            start = _loc(tok)  # the lexer places every token it makes
            raise SpecError("a string cannot hold U+0000 (NUL): C reads a string only up to it",
                            Loc(start.line, start.column + k))
        return tok

    # statements: each becomes (keyword, loc, payload)
    @v_args(meta=True)
    def start(self, meta, children):
        return children

    @v_args(meta=True)
    def encoding(self, meta, c):
        return ("encoding", _loc(meta), str(c[0]))

    @v_args(meta=True)
    def title(self, meta, c):
        return ("title", _loc(meta), c[0][1:-1])

    @v_args(meta=True)
    def source(self, meta, c):
        return ("source", _loc(meta), c[0][1:-1])

    @v_args(meta=True)
    def aliases(self, meta, c):
        return ("aliases", _loc(meta), [str(t) for t in c])

    @v_args(meta=True)
    def claims(self, meta, c):
        return ("claims", _loc(meta), [Claim(str(t), _loc(t)) for t in c])

    @v_args(meta=True)
    def code_space(self, meta, c):
        return ("code-space", _loc(meta), c[0])

    @v_args(meta=True)
    def numbering(self, meta, c):
        return ("numbering", _loc(meta), str(c[0]))

    @v_args(meta=True)
    def hole(self, meta, c):
        return ("ill-formed", _loc(meta), c)

    @v_args(meta=True)
    def skip(self, meta, c):
        return ("skip", _loc(meta), c)

    @v_args(meta=True)
    def alphabet(self, meta, c):
        return ("alphabet", _loc(c[0]), (str(c[0]), tuple(c[1:])))

    @v_args(meta=True)
    def form(self, meta, c):
        name, rest = c[0], c[1:]
        items = [x for x in rest if isinstance(x, tuple) and x[0] == "item"]
        options = [x for x in rest if isinstance(x, tuple) and x[0] == "option"]
        if ("end",) in rest:
            options.append(("option", "end", True, items[-1][1]))
        return ("form", _loc(meta), (name, items, options))

    @v_args(meta=True)
    def pattern(self, meta, c):
        combine = None
        if isinstance(c[-1], Token) and c[-1].type == "COMBINATOR":
            combine, c = str(c[-1]), c[:-1]
        name, rest, reason = c[0], c[1:-1], c[-1]
        at_end = ("end",) in rest
        rest = [x for x in rest if x != ("end",)]
        return ("pattern", _loc(meta), (name, rest, reason[1:-1], combine, at_end, None))

    @v_args(meta=True)
    def mode(self, meta, c):
        return ("mode", _loc(meta), (str(c[0]), _loc(c[0])))

    @v_args(meta=True)
    def shift(self, meta, c):
        # an ill-formed pattern's shape (name, items, reason, combine, at end) plus the mode it enters
        return ("pattern", _loc(meta), (c[0], c[1:-1], "", None, False, (str(c[-1]), _loc(c[-1]))))

    @v_args(meta=True)
    def encode_modes(self, meta, c):
        choice = str(c[-1]) if c and c[-1].type == "ENCODE_CHOICE" else "first"
        names = c[:-1] if choice != "first" else c
        return ("encode-modes", _loc(meta), (tuple((str(t), _loc(t)) for t in names), choice))

    @v_args(meta=True)
    def encode_end(self, meta, c):
        return ("encode-end", _loc(meta), tuple((str(t), _loc(t)) for t in c))

    @v_args(meta=True)
    def unencodable_shift(self, meta, c):
        return ("unencodable-shift", _loc(meta), (str(c[0]), _loc(c[0])))

    @v_args(meta=True)
    def shift_error(self, meta, c):
        return ("shift-after-shift", _loc(meta), c[0][1:-1])

    @v_args(meta=True)
    def digits(self, meta, c):
        return ("digits", _loc(meta), (str(c[0]), tuple(c[1:]), _loc(c[0])))

    @v_args(meta=True)
    def digit_run(self, meta, c):
        # name, opening byte, digits' name, bits per digit, bits per unit, end byte, combine
        end = next((int(t, 16) for t in c[5:] if getattr(t, "type", "") == "HEXBYTE"), None)
        combine = next((str(t) for t in c[5:] if getattr(t, "type", "") == "COMBINATOR"), None)
        return ("run", _loc(meta), (c[0], int(c[1], 16), (str(c[2]), _loc(c[2])), (int(c[3]), _loc(c[3])),
                                    (int(c[4]), _loc(c[4])), end, combine))

    @v_args(meta=True)
    def encode_direct(self, meta, c):
        return ("encode-direct", _loc(meta), tuple(c))

    @v_args(meta=True)
    def reserved(self, meta, c):
        return ("reserved", _loc(meta), [int(t, 16) for t in c])

    @v_args(meta=True)
    def signature(self, meta, c):
        order = None
        if c[-1].type == "BYTE_ORDER":
            order, c = (str(c[-1]).split("-")[0], _loc(c[-1])), c[:-1]
        return ("signature", _loc(meta), (bytes(int(t, 16) for t in c), order))

    @v_args(meta=True)
    def code_unit(self, meta, c):
        order = str(c[1]).split("-")[0] if len(c) > 1 else None
        return ("code-unit", _loc(meta), (int(c[0]), _loc(c[0]), order, _loc(c[1]) if len(c) > 1 else None))

    @v_args(meta=True)
    def reason(self, meta, c):
        return ("reason", _loc(meta), (str(c[0]), c[1][1:-1], _loc(c[0])))

    def at_end(self, c):
        return ("end",)

    # mapping tables and the encoder's own entries
    @v_args(meta=True)
    def table(self, meta, c):
        return ("table", _loc(meta), (c[0], c[1][1:-1], _loc(c[1]), c[2:]))

    @v_args(meta=True)
    def tbl_ranges(self, meta, c):
        return ("ranges", _loc(meta), True)

    @v_args(meta=True)
    def tbl_with(self, meta, c):
        return ("with", _loc(meta), c)

    @v_args(meta=True)
    def table_entry(self, meta, c):
        (lo, hi, loc), got = c[0], _cps(c[1:])
        cps = got if isinstance(got, tuple) else (got,)
        return (lo, hi, cps, loc, tuple(_loc(t) for t in c[1:]))

    def pointer_range(self, c):
        lo = int(c[0])
        hi = int(c[1]) if len(c) > 1 else lo
        if hi < lo:
            raise SpecError(f"empty pointer range {c[0]}..{c[1]}", _loc(c[0]))
        return (lo, hi, _loc(c[0]))

    @v_args(meta=True)
    def tbl_encode_skip(self, meta, c):
        return ("encode-skip", _loc(meta), tuple((lo, hi) for lo, hi, _ in c))

    @v_args(meta=True)
    def tbl_unreachable(self, meta, c):
        return ("unreachable", _loc(meta), tuple(c))

    @v_args(meta=True)
    def tbl_encode_last(self, meta, c):
        return ("encode-last", _loc(meta), tuple(_cp(t) for t in c))

    @v_args(meta=True)
    def encode(self, meta, c):
        cps = [t for t in c if t.type == "CODEPOINT"]
        return ("encode", _loc(meta), (_cps(cps), bytes(int(t, 16) for t in c[len(cps):])))

    @v_args(meta=True)
    def unencodable(self, meta, c):
        return ("unencodable", _loc(meta), c)

    @v_args(meta=True)
    def undecodable(self, meta, c):
        return ("undecodable", _loc(meta), c[0][1:-1])

    @v_args(meta=True)
    def encode_file(self, meta, c):
        return ("encode-file", _loc(meta), (c[0][1:-1], _loc(c[0])))

    @v_args(meta=True)
    def bytes_through(self, meta, c):
        return ("bytes-through", _loc(meta), (c[0][1:-1], _loc(c[0])))

    @v_args(meta=True)
    def error_span(self, meta, c):
        return ("error-span", _loc(meta), (str(c[0]), tuple((lo, hi) for lo, hi, _ in c[1:]), _loc(c[0])))

    def form_name(self, c):
        return c[0]

    @v_args(meta=True)
    def profile(self, meta, c):
        return ("profile", _loc(c[0]), (str(c[0]), tuple(c[1:]), _loc(c[0])))

    def _rule(self, kind, c):  # (severity, kind, code point ranges, message, position)
        return (str(c[0]), kind, tuple(c[1:-1]), c[-1][1:-1], _loc(c[0]))

    def rule_chars(self, c):
        return self._rule("chars", c)

    def rule_missing_signature(self, c):
        return self._rule("missing-signature", c)

    def rule_misplaced_signature(self, c):
        return self._rule("misplaced-signature", c)

    def rule_last_not(self, c):
        return self._rule("last-not", c)

    # items
    @v_args(meta=True)
    def item(self, meta, c):
        atom, repeat, field = c[0], None, None
        for x in c[1:]:
            if x[0] in ("repeat", "repeat_range"):
                repeat = x
            else:
                field = x
        return ("item", _loc(meta), atom, repeat, field)

    @v_args(meta=True)
    def fixed_byte(self, meta, c):
        b = int(c[0], 16)
        return ("digits", _loc(c[0]), DigitSet(((b, b),)), 1)

    @v_args(meta=True)
    def fixed_unit(self, meta, c):
        u = int(c[0], 16)
        if len(c[0]) == 8 and set(c[0]) <= {"0", "1"}:  # also a bit pattern: the spec's unit decides
            b = int(c[0], 2)
            return ("digits", _loc(c[0]), DigitSet(((u, u),)), 4, DigitSet(((b, b),)))
        return ("digits", _loc(c[0]), DigitSet(((u, u),)), len(c[0]) // 2)

    @v_args(meta=True)
    def byte_run_range(self, meta, c):
        lo, hi = int(c[0], 16), int(c[1], 16)
        if lo > hi:
            raise SpecError(f"empty byte range {c[0]}..{c[1]}", _loc(c[0]))
        return ("digits", _loc(c[0]), DigitSet(((lo, hi),)), 1)

    @v_args(meta=True)
    def unit_run_range(self, meta, c):
        lo, hi = int(c[0], 16), int(c[1], 16)
        if len(c[0]) != len(c[1]):
            raise SpecError(f"unit range {c[0]}..{c[1]} mixes units of {len(c[0]) * 4} and {len(c[1]) * 4} bits",
                            _loc(c[1]))
        if lo > hi:
            raise SpecError(f"empty unit range {c[0]}..{c[1]}", _loc(c[0]))
        return ("digits", _loc(c[0]), DigitSet(((lo, hi),)), len(c[0]) // 2)

    @v_args(meta=True)
    def bit_pattern(self, meta, c):
        bits = str(c[0])
        k = len(bits) - len(bits.rstrip("x"))
        if "x" in bits[: len(bits) - k]:
            raise SpecError(f"bit pattern {bits}: the x bits must be the low-order bits", _loc(c[0]))
        fixed = int(bits[: len(bits) - k] + "0" * k, 2)
        return ("digits", _loc(c[0]), DigitSet(((fixed, fixed + (1 << k) - 1),)), len(bits) // 8)

    @v_args(meta=True)
    def alphabet_ref(self, meta, c):
        return ("alphabet_ref", _loc(c[0]), str(c[0]))

    @v_args(meta=True)
    def sub_form(self, meta, c):
        return ("sub_form", _loc(c[0]), str(c[0]), c[1])

    @v_args(meta=True)
    def repeat(self, meta, c):
        return ("repeat", c[0], _loc(meta))

    @v_args(meta=True)
    def repeat_range(self, meta, c):
        return ("repeat_range", c[0], _loc(meta), c[1])

    def field(self, c):
        return ("field", str(c[0]), len(c) > 1, _loc(c[0]))

    def single_run(self, c):
        b = int(c[0], 16)
        return (b, b, _loc(c[0]))

    def range_run(self, c):
        lo, hi = int(c[0], 16), int(c[1], 16)
        if lo > hi:
            raise SpecError(f"empty byte range {c[0]}..{c[1]}", _loc(c[0]))
        return (lo, hi, _loc(c[0]))

    # options
    @v_args(meta=True)
    def opt_mapping(self, meta, c):
        return ("option", "mapping", str(c[0]), _loc(c[0]))

    @v_args(meta=True)
    def opt_min(self, meta, c):
        return ("option", "min", _cp(c[0]), _loc(c[0]))

    @v_args(meta=True)
    def opt_at(self, meta, c):
        return ("option", "at", _cp(c[0]), _loc(c[0]))

    @v_args(meta=True)
    def opt_value(self, meta, c):
        return ("option", "value", _cps(c), _loc(c[0]))

    @v_args(meta=True)
    def opt_combine(self, meta, c):
        return ("option", "combine", str(c[0]), _loc(c[0]))

    @v_args(meta=True)
    def opt_range(self, meta, c):
        return ("option", "range", (c[0], c[1]), _loc(meta))

    @v_args(meta=True)
    def opt_max(self, meta, c):
        return ("option", "max", _cp(c[0]), _loc(c[0]))

    @v_args(meta=True)
    def opt_table(self, meta, c):
        return ("option", "table", str(c[0]), _loc(c[0]))

    @v_args(meta=True)
    def opt_then(self, meta, c):
        return ("option", "then", str(c[0]), _loc(c[0]))

    @v_args(meta=True)
    def opt_digit_order(self, meta, c):
        return ("option", "digit-order", str(c[0]).split("-")[0], _loc(c[0]))

    # code point ranges
    @v_args(meta=True)
    def closed_range(self, meta, c):
        lo, hi = _cp(c[0]), _cp(c[1])
        if lo > hi:
            raise SpecError(f"empty code point range {c[0]}..{c[1]}", _loc(c[0]))
        return CodeRange(lo, hi, _loc(c[0]))

    @v_args(meta=True)
    def open_range(self, meta, c):
        return CodeRange(_cp(c[0]), None, _loc(c[0]))

    @v_args(meta=True)
    def single_cp(self, meta, c):
        return CodeRange(_cp(c[0]), _cp(c[0]), _loc(c[0]))

    # expressions: Int, Var and BinOp (expr.py), each with the position it is written at
    def int_lit(self, c):
        digits = str(c[0]).lstrip("0") or "0"
        # the length first: int() refuses (ValueError) more than 4300 decimal digits, and would be slow
        value = int(digits) if len(digits) <= CONST_DIGITS else None
        if value is None or value.bit_length() > CONST_BITS:
            raise SpecError(f"a number wider than {CONST_BITS} bits, the limit for a number in a spec", _loc(c[0]))
        return Int(value, _loc(c[0]))

    def var(self, c):
        return Var(str(c[0]), _loc(c[0]))

    def _binop(self, c):  # [left, operator token, right]
        return BinOp(str(c[1]), c[0], c[2], _loc(c[1]))

    add = sub = mul = floordiv = pow = _binop


def parse_text(text: str, path: str = "<spec>") -> Spec:
    """Parse and validate spec *text*; raise :class:`SpecError` located in *path*."""
    with paused_gc():
        return _parse_text(text, path)


def _parse_text(text: str, path: str) -> Spec:
    try:
        tree = _parser().parse(text)
        statements = _Build().transform(tree)
        return resolve(statements, text, path)
    except lark.exceptions.VisitError as e:
        if isinstance(e.orig_exc, SpecError):
            raise e.orig_exc.located(path, text) from None
        raise
    except lark.exceptions.UnexpectedCharacters as e:
        pos: int = e.pos_in_stream  # type: ignore[assignment]  # lark declares it None on the base class; the lexer's error sets it
        ch = text[pos] if pos < len(text) else ""
        if ch == '"':  # the only way a quote fails to lex
            msg = "unterminated string (a string ends on the line it starts)"
        else:
            msg = f"unexpected character {ch!r}, expected {_expected(_acceptable(e))}"
        raise SpecError(msg, Loc(e.line, e.column), path, text) from None
    except lark.exceptions.UnexpectedToken as e:
        tok = e.token
        msg = f"unexpected {_shown(tok, text)}, expected {_expected(_acceptable(e))}"
        if tok.type != "$END":
            loc = Loc(tok.line, tok.column)
        elif getattr(tok, "end_line", None):  # lark places end of file at the last token: point after it
            loc = Loc(tok.end_line, tok.end_column)
        else:
            lines = text.splitlines() or [""]
            loc = Loc(len(lines), len(lines[-1]) + 1)
        raise SpecError(msg, loc, path, text) from None
    except lark.exceptions.UnexpectedEOF as e:
        lines = text.splitlines() or [""]
        raise SpecError(f"unexpected end of file, expected {_expected(e.expected)}",
                        Loc(len(lines), len(lines[-1]) + 1), path, text) from None
    except SpecError as e:
        raise e.located(path, text) from None


def parse_file(path: str | Path) -> Spec:
    """Read and parse the spec file *path* (see :func:`parse_text`)."""
    path = Path(path)
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        raise SpecError("no such spec file", None, str(path)) from None
    except UnicodeDecodeError as e:
        good = e.object[:e.start].decode("utf-8")
        loc = Loc(good.count("\n") + 1, len(good) - good.rfind("\n"))
        raise SpecError(f"byte {e.object[e.start]:02X} is not valid UTF-8 (a spec is UTF-8 text)", loc,
                        str(path), e.object.decode("utf-8", "replace")) from None
    except OSError as e:
        raise SpecError(f"cannot read spec: {e.strerror or e}", None, str(path)) from None
    return parse_text(text, str(path))

