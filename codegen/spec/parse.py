"""Stage 1: spec text → :class:`~encspec.spec.model.Spec`.

lark parses with ``grammars/encspec.lark`` (syntax only); a Transformer builds
model objects; :func:`_resolve` then checks what the grammar cannot (names,
bit patterns, ranges), every error with the position of the offending token.
"""
from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from importlib import resources
from math import prod
from pathlib import Path
from typing import Any

import lark
from lark import Token, Transformer_NonRecursive, v_args

from .diagnostics import Loc, SpecError, SpecWarning
from .expr import (
    CONST_BITS,
    CONST_DIGITS,
    DIVISION_BY_ZERO,
    MAX_DEPTH,
    BinOp,
    Expr,
    ExprLimitError,
    Int,
    Var,
    check_constants,
    evaluate_bounded,
    too_deep,
    walk,
)
from .index_files import MAX_POINTER, line_text, read_encode_file, read_index
from .model import (
    PROPERTIES,
    Claim,
    CodeRange,
    DigitSet,
    EncodeRule,
    Form,
    Item,
    Pattern,
    Profile,
    ProfileRule,
    RangeSet,
    Signature,
    Spec,
    SubForm,
    Table,
    const,
    evaluate,
    is_const,
    paused_gc,
)

_WORDS = {
    "HEXBYTE": "a hex byte (ED)", "HEXUNIT": "a hex code unit (D800)", "BITS": "a bit pattern (10xxxxxx)",
    "BYTE_ORDER": "'big-endian' or 'little-endian'",
    "REASON_KIND": "'invalid-start', 'invalid-continuation', 'unexpected-end', 'truncated-unit', 'unmapped' or "
                   "'unencodable'",
    "SPAN_KIND": "'maximal-subpart', 'one-unit' or 'through-failing-byte'",
    "CODEPOINT": "a code point (U+0080)", "NAME": "a name", "ALIAS": "a name (1252, latin-1)",
    "INT": "a number",
    "STRING": 'a quoted string', "MAPPING": "'direct' or 'packed'",
    "COMBINATOR": "'surrogate-pair'", "SHORTEST": "'shortest'", "SEVERITY": "'error' or 'warning'",
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
_OPTIONS = frozenset({"MAPPING", "MIN", "AT", "EQUAL", "COMBINE", "RANGE", "MAX", "BYTE_ORDER", "TABLE"})
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
        return ("pattern", _loc(meta), (name, rest, reason[1:-1], combine, at_end))

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
        (lo, hi, loc), cps = c[0], tuple(_cp(t) for t in c[1:])
        if hi != lo and len(cps) > 1:
            raise SpecError("a pointer range maps to one first code point (the rest follow it)", _loc(c[2]))
        return (lo, hi, cps, loc)

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
        return ("encode", _loc(meta), (_cp(c[0]), bytes(int(t, 16) for t in c[1:])))

    @v_args(meta=True)
    def unencodable(self, meta, c):
        return ("unencodable", _loc(meta), c)

    @v_args(meta=True)
    def encode_file(self, meta, c):
        return ("encode-file", _loc(meta), (c[0][1:-1], _loc(c[0])))

    @v_args(meta=True)
    def error_span(self, meta, c):
        return ("error-span", _loc(meta), (str(c[0]), tuple((lo, hi) for lo, hi, _ in c[1:]), _loc(c[0])))

    def form_name(self, c):
        return c[0]

    @v_args(meta=True)
    def profile(self, meta, c):
        return ("profile", _loc(c[0]), Profile(str(c[0]), tuple(c[1:]), _loc(c[0])))

    def _rule(self, kind, c):
        ranges = tuple((r.lo, r.hi) for r in c[1:-1])
        for r in c[1:-1]:
            if r.hi is None:
                raise SpecError("a profile rule needs closed code point ranges", r.loc)
        return ProfileRule(str(c[0]), kind, ranges, c[-1][1:-1], _loc(c[0]))

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
            if x[0] == "repeat":
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
        return ("option", "value", _cp(c[0]), _loc(c[0]))

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


def _var_locs(expr, out):
    """(name, loc) of every name in *expr*, in reading order."""
    out += [(node.name, node.loc) for node in walk(expr) if isinstance(node, Var)]
    return out


def _limit_error(e: ExprLimitError, what: str, fallback: Loc) -> SpecError:
    return SpecError(f"{e.message} (in {what})", e.node.loc or fallback)


def _checked_expr(expr, what: str, loc: Loc):
    """*expr* after the limits every stored expression must meet: each constant
    part computes within CONST_BITS bits, and operators nest at most MAX_DEPTH deep."""
    try:
        check_constants(expr)
    except ExprLimitError as e:
        raise _limit_error(e, what, loc) from None
    deep = too_deep(expr)
    if deep is not None:
        raise SpecError(f"{what} nests its operators more than {MAX_DEPTH} deep: simplify it", deep.loc or loc)
    return expr


def parse_text(text: str, path: str = "<spec>") -> Spec:
    """Parse and validate spec *text*; raise :class:`SpecError` located in *path*."""
    with paused_gc():
        return _parse_text(text, path)


def _parse_text(text: str, path: str) -> Spec:
    try:
        tree = _parser().parse(text)
        statements = _Build().transform(tree)
        return _resolve(statements, text, path)
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


# ------------------------------------------------------------------ resolving
_SINGLE = {"encoding", "title", "source", "code-space", "numbering", "reserved", "code-unit", "error-span"}
UNIT_BITS = (8, 16, 32)


def _resolve(statements, text: str, path: str) -> Spec:
    seen: dict[str, Loc] = {}
    values: dict[str, Any] = {}  # each statement's payload, as the transformer built it
    alphabets: dict[str, DigitSet] = {}
    claims: list[Claim] = []
    aliases: list[str] = []
    holes: list[CodeRange] = []
    skips: list[CodeRange] = []
    raw_forms, raw_patterns = [], []
    profiles: list[Profile] = []
    profile_names: set[str] = set()
    signatures: list[tuple] = []
    reasons: dict[str, str] = {}
    tables: dict[str, Table] = {}
    encodes: list[EncodeRule] = []
    for kind, loc, payload in statements:
        if kind in _SINGLE:
            if kind in seen:
                raise SpecError(f"'{kind}' is given twice (first at line {seen[kind].line})", loc)
            seen[kind] = loc
            values[kind] = payload
        if kind == "aliases":
            aliases += payload
        elif kind == "claims":
            claims += payload
        elif kind == "ill-formed":
            holes += payload
        elif kind == "skip":
            skips += payload
        elif kind == "alphabet":
            name, runs = payload
            if name in alphabets:
                raise SpecError(f"alphabet '{name}' is defined twice", loc)
            alphabets[name] = _alphabet(name, runs)
        elif kind == "form":
            raw_forms.append((loc, payload))
        elif kind == "pattern":
            raw_patterns.append((loc, payload))
        elif kind == "signature":
            signatures.append((loc, payload))
        elif kind == "reason":
            what, text_, rloc = payload
            if what in reasons:
                raise SpecError(f"reason '{what}' is given twice", rloc)
            reasons[what] = text_
        elif kind == "table":
            name = str(payload[0])
            if name in tables:
                raise SpecError(f"table '{name}' is defined twice", _loc(payload[0]))
            tables[name] = _table(name, loc, payload, path)
        elif kind == "encode":
            encodes.append(EncodeRule(payload[0], payload[1], loc))
        elif kind == "unencodable":
            for r in payload:
                if r.hi is None or r.hi - r.lo > 0x10FFFF:
                    raise SpecError("an unencodable range needs an upper end", r.loc)
                encodes += [EncodeRule(cp, None, r.loc) for cp in range(r.lo, r.hi + 1)]
        elif kind == "encode-file":
            written, wloc = payload
            got, _ = read_encode_file(path, written, wloc)
            encodes += [EncodeRule(cp, b, wloc) for cp, b in got]
        elif kind == "profile":
            if payload.name in profile_names:
                raise SpecError(f"profile '{payload.name}' is defined twice", loc)
            profile_names.add(payload.name)
            profiles.append(payload)

    first = statements[0][1] if statements else Loc(1, 1)
    if "encoding" not in values:
        raise SpecError("the spec has no 'encoding NAME' statement", first)
    if "code-space" not in values:
        raise SpecError("the spec has no 'code-space' statement", first)
    if not raw_forms:
        raise SpecError("the spec defines no form", first)
    for c in claims:
        if c.name not in PROPERTIES:
            raise SpecError(f"unknown property '{c.name}' (known: {', '.join(PROPERTIES)})", c.loc)
    space: CodeRange = values["code-space"]
    for r in holes + skips:
        if r.lo < space.lo or (space.hi is not None and (r.hi is None or r.hi > space.hi)):
            shown = lambda x: f"U+{x.lo:04X}.." + (f"U+{x.hi:04X}" if x.hi is not None else "")  # noqa: E731
            raise SpecError(f"range {shown(r)} reaches outside the code space {shown(space)}", r.loc)
        if r.hi is None:
            raise SpecError("an excluded range needs an upper end", r.loc)

    unit, byte_order = _code_unit(values.get("code-unit"))
    if unit == 1 and "truncated-unit" in reasons:
        raise SpecError("'reason truncated-unit' needs code units wider than a byte ('code-unit 16' or 32)",
                        next(loc for kind, loc, p in statements if kind == "reason" and p[0] == "truncated-unit"))
    sigs: list[Signature] = []
    for loc, (data, order) in signatures:
        if order is not None and unit == 1:
            raise SpecError("a signature can choose a byte order only in a spec of 16- or 32-bit code units",
                            order[1])
        if any(s.bytes == data for s in sigs):
            raise SpecError(f"signature {data.hex(' ').upper()} is given twice", loc)
        sigs.append(Signature(data, order[0] if order else None, loc))
    default_mapping = values.get("numbering", "direct")
    forms: list[Form] = []
    by_name: dict[str, Form] = {}  # the forms so far, for sub-form references
    for loc, (name_tok, items, options) in raw_forms:
        name = str(name_tok)
        if name in by_name:
            raise SpecError(f"form '{name}' is defined twice", _loc(name_tok))
        forms.append(_form(name, loc, items, options, alphabets, by_name, default_mapping, unit, byte_order))
        if forms[-1].table is not None and forms[-1].table not in tables:
            raise SpecError(f"unknown table '{forms[-1].table}' (define it with a 'table' statement)",
                            forms[-1].option_locs["table"])
        _check_length(f"form '{name}'", forms[-1].items, by_name, loc, unit)
        by_name[name] = forms[-1]
    _check_skips(skips, forms)
    _check_numbering(forms, space, holes, skips)
    patterns = []
    pattern_names: set[str] = set()
    for loc, (name_tok, items, reason, combine, at_end) in raw_patterns:
        for what, named in (("a form", by_name), ("an ill-formed pattern", pattern_names)):  # messages name both alike
            if str(name_tok) in named:
                raise SpecError(f"'{name_tok}' already names {what}: give this ill-formed pattern a name of its own",
                                _loc(name_tok))
        pattern_names.add(str(name_tok))
        its = tuple(_item(i, alphabets, by_name, unit)[0] for i in items)
        if any(i.binds or i.field or not is_const(i.count) for i in its):
            raise SpecError("an ill-formed pattern must have a fixed length", loc)
        _check_length(f"ill-formed pattern '{name_tok}'", its, by_name, loc, unit)
        if combine:
            _check_pair(its, loc)
        patterns.append(Pattern(str(name_tok), loc, its, reason, combine, unit, byte_order, at_end))

    span, restore, span_loc = values.get("error-span", ("maximal-subpart", (), None))
    if restore and span != "through-failing-byte":
        raise SpecError("'restore' goes with 'error-span through-failing-byte' (the other spans never take "
                        "the failing byte)", span_loc)
    if span != "maximal-subpart" and unit > 1:
        raise SpecError(f"'error-span {span}' needs a spec of bytes", span_loc)
    seen_encodes: dict[int, Loc] = {}
    for e in encodes:
        if e.code_point in seen_encodes:
            raise SpecError(f"U+{e.code_point:04X} is given to the encoder twice (first at line "
                            f"{seen_encodes[e.code_point].line})", e.loc)
        seen_encodes[e.code_point] = e.loc
    reserved = tuple(values.get("reserved", ()))
    if reserved and unit > 1:
        raise SpecError("reserved lead bytes need a spec of bytes (no 'code-unit' wider than 8)", seen["reserved"])
    signature = sigs[0].bytes if sigs else b""
    for p in profiles:
        for rule in p.rules:
            if rule.kind in ("missing-signature", "misplaced-signature") and not signature:
                what = rule.kind.replace("-", " ")
                raise SpecError(f"'{what}' needs a 'signature' statement", rule.loc)
    return Spec(
        name=values["encoding"], path=path, text=text,
        sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(),
        code_space=space, forms=tuple(forms), title=values.get("title", ""),
        aliases=tuple(aliases), source=values.get("source", ""), claims=tuple(claims),
        holes=tuple(holes), skips=tuple(skips), patterns=tuple(patterns),
        reserved=reserved, reserved_loc=seen.get("reserved"),
        signature=signature, signature_loc=sigs[0].loc if sigs else None, profiles=tuple(profiles),
        unit=unit, byte_order=byte_order, signatures=tuple(sigs), reasons=tuple(sorted(reasons.items())),
        tables=tuple(tables.values()), encodes=tuple(encodes), error_span=span, restore=restore,
        warnings=tuple(_unreachable(tables, forms, path, text)),
    )


def _table(name: str, loc: Loc, payload, spec_path: str) -> Table:
    """A 'table' statement: its file read, its options checked."""
    _, written, wloc, options = payload
    index = read_index(spec_path, written, wloc)
    ranges, extra, skip, last, unreachable = False, [], [], [], []
    for key, _oloc, value in options:
        if key == "ranges":
            ranges = True
        elif key == "unreachable":
            unreachable += value
        elif key == "with":
            for lo, hi, cps, eloc in value:
                if hi - lo >= MAX_POINTER or hi >= MAX_POINTER:
                    raise SpecError(f"pointer {hi} is beyond a table's limit ({MAX_POINTER - 1})", eloc)
                if hi != lo and cps[0] + hi - lo > 0x10FFFF:
                    raise SpecError("the range runs beyond U+10FFFF", eloc)
                extra.append((lo, hi, cps))
        elif key == "encode-skip":
            skip += value
        else:
            last += value
    if ranges and extra and any(len(cps) > 1 for _, _, cps in extra):
        raise SpecError("a ranges table maps each pointer to one code point", loc)
    return Table(name, loc, written, index.sha256, index.entries, ranges, tuple(extra), tuple(skip), tuple(last),
                 index.lines, tuple(unreachable))


def _unreachable(tables: dict[str, Table], forms: list[Form], spec_path: str, text: str) -> list[SpecWarning]:
    """A warning per table whose entries no form reaches: a table no form uses (at its
    statement), or file lines whose pointer is beyond every form that reads the table
    (at the first such line, counting the rest)."""
    capacity: dict[str, int] = {}
    readers: dict[str, list[str]] = {}
    for f in forms:
        if f.table is not None:
            cap = prod(i.digits.radix ** evaluate(i.count, {}) for i in f.items if i.digits is not None)
            capacity[f.table] = max(capacity.get(f.table, 0), cap)
            readers.setdefault(f.table, []).append(f"'{f.name}'")
    out = []
    for t in tables.values():
        if t.name not in capacity:
            out.append(SpecWarning(f"table '{t.name}' is read by no form: none of its {len(t.entries):,} entries "
                                   "is reachable", t.loc, spec_path, text))
            continue
        cap = capacity[t.name]
        for lo, _hi, loc in t.unreachable:
            if lo < cap:
                raise SpecError(f"pointer {lo} is not unreachable: the forms of table '{t.name}' reach pointers "
                                f"0..{cap - 1}", loc)
        known = RangeSet(tuple((lo, hi) for lo, hi, _ in t.unreachable))
        beyond = [k for k, (pointer, _) in enumerate(t.entries) if pointer >= cap and known.containing(pointer) is None]
        if not beyond:
            continue
        first = beyond[0]
        who = ("form " if len(readers[t.name]) == 1 else "forms ") + ", ".join(readers[t.name])
        more = (f"; so are {len(beyond) - 1:,} more entries, the last on line {t.lines[beyond[-1]]}"
                if len(beyond) > 1 else "")
        out.append(SpecWarning(f"pointer {t.entries[first][0]} is unreachable: {who} of table '{t.name}' reach "
                               f"pointers 0..{cap - 1}{more}", Loc(t.lines[first], 1), "",
                               line_text(spec_path, t.path), t.path).located(spec_path, text))
    return out


def _code_unit(payload) -> tuple[int, str]:
    """(bytes per unit, byte order) of a 'code-unit BITS [ORDER]' statement (none: bytes)."""
    if payload is None:
        return 1, "big"
    bits, loc, order, oloc = payload
    if bits not in UNIT_BITS:
        raise SpecError(f"a code unit has 8, 16 or 32 bits, not {bits}", loc)
    if bits == 8 and order is not None:
        raise SpecError("a code unit of 8 bits has no byte order: remove it", oloc)
    if bits > 8 and order is None:
        raise SpecError(f"{bits}-bit code units need a byte order: 'code-unit {bits} big-endian' or "
                        f"'code-unit {bits} little-endian'", loc)
    return bits // 8, order or "big"


def _unit_is_product(lo: int, hi: int, unit: int) -> bool:
    """Whether units lo..hi are every combination of per-byte ranges (D800..DBFF is;
    0041..0300 is not), so that the automaton can read them byte by byte."""
    for k in range(unit - 1, -1, -1):  # from the most significant byte
        a, b = (lo >> 8 * k) & 0xFF, (hi >> 8 * k) & 0xFF
        if a != b:
            low = (1 << 8 * k) - 1
            return lo & low == 0 and hi & low == low
    return True


def _run_text(lo: int, hi: int) -> str:
    return f"{lo:02X}" if lo == hi else f"{lo:02X}..{hi:02X}"


def _alphabet(name: str, runs) -> DigitSet:
    """The digit set of ``alphabet NAME = runs``: byte runs listed once each, in increasing order.

    A byte's digit is its place in the list, so a run listed before a lower one
    would number the alphabet out of byte order, which no exporter can express.
    """
    for k, (lo, hi, loc) in enumerate(runs):
        for a, b, _ in runs[:k]:
            if lo <= b and a <= hi:
                raise SpecError(f"byte run {_run_text(lo, hi)} overlaps {_run_text(a, b)} in alphabet '{name}': "
                                "list each byte once", loc)
        if k and lo < runs[k - 1][0]:
            fixed = ", ".join(_run_text(a, b) for a, b, _ in sorted(runs))
            raise SpecError(f"byte run {_run_text(lo, hi)} comes after {_run_text(*runs[k - 1][:2])} in alphabet "
                            f"'{name}': list the runs in increasing byte order (alphabet {name} = {fixed})", loc)
    return DigitSet(tuple((lo, hi) for lo, hi, _ in runs))


_MAX_REPEAT = 64  # far beyond any real encoding; more only makes the automaton slow to build
MAX_POSITIONS = 256  # bytes of a fixed-length form or pattern: the automaton's cost grows with its square


def _length(items, forms, unit: int = 1) -> int:
    """The bytes a run of items spells: constant counts, and a sub-form's own length."""
    total = 0
    for i in items:
        if i.sub is not None:
            total += _length(forms[i.sub.form].items, forms) if i.sub.form in forms else 0
        elif not i.binds and is_const(i.count):
            total += i.count.value * unit
    return total


def _check_length(what: str, items, forms, loc, unit: int = 1) -> None:
    n = _length(items, forms, unit)
    if n > MAX_POSITIONS:
        raise SpecError(f"{what} is {n} bytes long: a form or pattern has at most {MAX_POSITIONS} bytes of "
                        "fixed length (counted forms are the way to longer codes)", loc)


def _repeat_count(expr, loc) -> int:
    """The value of a constant repetition count {N}, which must be 1 .. _MAX_REPEAT.

    Computed within CONST_BITS bits (a power or product that would be wider is
    refused from its operands' sizes, before it is computed), iteratively."""
    try:
        n = evaluate_bounded(expr)
    except ExprLimitError as e:
        if e.message == DIVISION_BY_ZERO:
            raise SpecError("division by zero in a repetition count", e.node.loc or loc) from None
        raise _limit_error(e, "a repetition count", loc) from None
    if n < 1:
        raise SpecError("a repetition count must be at least 1", loc)
    if n > _MAX_REPEAT:
        raise SpecError(f"a repetition count must be at most {_MAX_REPEAT}", loc)
    return n


def _item(raw, alphabets, forms, unit: int = 1) -> tuple[Item, Expr | None]:
    _, loc, atom, repeat, field = raw
    digits = sub = None
    if atom[0] == "digits":
        digits, width = atom[2], atom[3]
        if width != unit and unit == 1 and len(atom) > 4:
            digits, width = atom[4], 1
        if width != unit:
            what = "a byte" if width == 1 else f"a {width * 8}-bit code unit"
            spec = "bytes" if unit == 1 else f"{unit * 8}-bit code units"
            hint = f" (declare 'code-unit {width * 8} big-endian' or little-endian)" if unit == 1 else ""
            raise SpecError(f"{what} in a spec of {spec}{hint}", atom[1])
        lo, hi = digits.runs[0]
        if unit > 1 and not _unit_is_product(lo, hi, unit):
            raise SpecError(f"units {lo:0{2 * unit}X}..{hi:0{2 * unit}X} are not read byte by byte as one range "
                            "of each byte: split the range where its leading bytes change "
                            f"(e.g. at {(lo | 0xFF) + 1:0{2 * unit}X})", atom[1])
    elif atom[0] == "alphabet_ref":
        if unit > 1:
            raise SpecError("alphabets are byte alphabets: a spec of wider code units writes unit ranges", atom[1])
        if atom[2] not in alphabets:
            hint = f" (hex bytes are written in capitals: {atom[2].upper()})" if re.fullmatch(r"[0-9a-f]{2}", atom[2]) else ""
            raise SpecError(f"unknown alphabet '{atom[2]}'{hint}", atom[1])
        digits = alphabets[atom[2]]
    else:  # sub_form
        _, sloc, fname, rng = atom
        target = forms.get(fname)  # the forms defined so far, by name
        if target is None:
            raise SpecError(f"unknown form '{fname}' (a sub-form must be defined earlier)", sloc)
        if target.kind != "linear" or target.mapping != "direct":
            raise SpecError(f"form '{fname}' cannot be a sub-form: it must be a direct form of fixed length", sloc)
        if rng.hi is None:
            raise SpecError("a sub-form needs a closed code point range", rng.loc)
        if unit > 1 or target.digit_order != "big":
            raise SpecError("a sub-form must be a big-endian form of bytes (write the units of a pair with "
                            "bit patterns: 110110xxxxxxxxxx 110111xxxxxxxxxx)", sloc)
        sub = SubForm(fname, rng.lo, rng.hi)
    count, binds = const(1), None
    if repeat is not None:
        expr = repeat[1]
        if isinstance(expr, Var):
            binds, count = expr.name, expr
        elif is_const(expr):
            count = const(_repeat_count(expr, repeat[2]))
        else:
            count = _checked_expr(expr, "a repetition count", repeat[2])
    field_name, shortest = None, False
    if field is not None:
        _, field_name, shortest, floc = field
        if sub is not None:
            raise SpecError("a sub-form cannot be a field", floc)
    if unit > 1 and (binds or field is not None or not is_const(count)):
        raise SpecError("counted forms need a spec of bytes (no 'code-unit' wider than 8)", loc)
    return Item(loc=loc, digits=digits, sub=sub, count=count,
                binds=binds, field=field_name, shortest=shortest), (repeat[1] if repeat else None)


def _form(name, loc, raw_items, options, alphabets, earlier, default_mapping, unit=1, byte_order="big") -> Form:
    items: list[Item] = []
    bound: dict[str, Loc] = {}
    for raw in raw_items:
        item, rexpr = _item(raw, alphabets, earlier, unit)
        if binds := item.binds:
            if binds in bound:  # {n} of a name bound earlier: a count, not a binding
                item = Item(item.loc, item.digits, item.sub, item.count, None, item.field, item.shortest)
            else:
                bound[binds] = item.loc
        elif rexpr is not None:
            for var, vloc in _var_locs(rexpr, []):
                if var not in bound:
                    raise SpecError(f"unknown name '{var}' in a repetition count", vloc)
        if item.field:
            if item.field in bound:
                raise SpecError(f"name '{item.field}' is bound twice", item.loc)
            bound[item.field] = item.loc
        items.append(item)
    opts: dict[str, Any] = {}  # each option's value, as the transformer built it
    locs: dict[str, Loc] = {}
    for _, key, value, oloc in options:
        if key in opts:
            raise SpecError(f"option '{key}' is given twice", oloc)
        opts[key], locs[key] = value, oloc
    if "range" in opts:
        lo, hi = opts["range"]
        for var, vloc in _var_locs(lo, []) + _var_locs(hi, []):
            if var not in bound:
                raise SpecError(f"unknown name '{var}' in a range", vloc)
        opts["range"] = (_checked_expr(lo, "a range bound", locs["range"]),
                         _checked_expr(hi, "a range bound", locs["range"]))
    form = Form(
        name=name, loc=loc, items=tuple(items), mapping=opts.get("mapping", default_mapping),
        min=opts.get("min"), at=opts.get("at"), value=opts.get("value"),
        combine=opts.get("combine"), value_range=opts.get("range"), option_locs=locs,
        max=opts.get("max"), digit_order=opts.get("digit-order", "big"), unit=unit, byte_order=byte_order,
        at_end=bool(opts.get("end")), table=opts.get("table"),
    )
    _check_form(form)
    return form


def _check_pair(items, loc) -> None:
    """'combine surrogate-pair' joins a lead surrogate sub-form and a trail one."""
    subs = [i for i in items if i.sub]
    if len(subs) != 2 or len(items) != 2:
        raise SpecError("'combine surrogate-pair' needs exactly two sub-forms", loc)
    hi, lo = subs[0].sub, subs[1].sub
    if not (0xD800 <= hi.lo and hi.hi <= 0xDBFF and 0xDC00 <= lo.lo and lo.hi <= 0xDFFF):
        raise SpecError("surrogate-pair needs a lead surrogate range (in U+D800..U+DBFF) "
                        "then a trail surrogate range (in U+DC00..U+DFFF)", subs[0].loc)


def _check_form(form: Form) -> None:
    subs = [i for i in form.items if i.sub]
    locs = form.option_locs
    if form.table is not None:
        for key in ("min", "at", "value", "combine", "range", "max", "mapping"):
            if key in locs:
                raise SpecError(f"'{key}' makes no sense on a table form: the table gives its code points",
                                locs[key])
        if subs or any(i.binds or i.field or not is_const(i.count) for i in form.items):
            raise SpecError("a table form must be a fixed-length sequence of byte positions", locs["table"])
        return
    if form.value is not None:
        if any(i.digits is None or i.digits.radix != 1 for i in form.items) or any(
            not is_const(i.count) for i in form.items
        ):
            raise SpecError("a special sequence '= U+…' must consist of fixed bytes", locs["value"])
        for key in ("min", "at", "combine", "range"):
            if key in locs:
                raise SpecError(f"'{key}' makes no sense with a fixed value", locs[key])
    if subs and form.combine is None:
        raise SpecError("a form made of sub-forms needs 'combine surrogate-pair'", subs[0].loc)
    if form.combine is not None:
        _check_pair(form.items, locs["combine"])
        for key in ("min", "at"):
            if key in locs:
                raise SpecError(f"'{key}' makes no sense on a surrogate-pair form: its code points follow "
                                "from the pair's; remove it", locs[key])
    if form.value is None and form.combine is None:
        _check_min_at(form)
    for key, why in (("max", "a direct form of fixed length"), ("digit-order", "a form of fixed length"),
                     ("end", "a form of fixed length")):
        if key in locs and not (form.kind == "linear" and (form.mapping == "direct" or key != "max")
                                or form.kind == "literal" and key == "end"):
            raise SpecError(f"'{key if key != 'digit-order' else form.digit_order + '-endian'}' needs {why}",
                            locs[key])
    if form.max is not None and form.min is not None and form.max < form.min:
        raise SpecError(f"max U+{form.max:04X} lies below min U+{form.min:04X}", locs["max"])
    if form.kind == "counted":
        if form.mapping != "direct":
            raise SpecError("a counted form must use the direct mapping", form.loc)
        if "range" not in locs:
            raise SpecError("a counted form needs 'range LOW .. HIGH' bounding its value", form.loc)
    elif form.value_range is not None:
        raise SpecError("'range' is only for counted forms (use min / code-space)", locs["range"])


def _check_min_at(form: Form) -> None:
    """'min' means "counted from U+0000, lower values are overlong"; 'at' means "counted from here"."""
    locs = form.option_locs
    if form.mapping == "packed" and "min" in locs:
        raise SpecError("'min' does nothing on a packed form (packed forms have no overlong sequences): "
                        "remove it, or write 'direct' to count the form from U+0000", locs["min"])
    if "min" in locs and "at" in locs:
        later = max(("min", "at"), key=lambda k: (locs[k].line, locs[k].column))
        raise SpecError(f"'at U+{form.at:04X}' and 'min U+{form.min:04X}' contradict each other: 'at' counts "
                        "the form from its code point, 'min' counts it from U+0000 and makes lower values "
                        "overlong; keep one", locs[later])


def _cp_text(r: CodeRange) -> str:
    return f"U+{r.lo:04X}" + ("" if r.hi == r.lo else f"..U+{r.hi:04X}")


def _check_skips(skips, forms) -> None:
    """'skip' only moves packed numbering; with direct forms alone it would silently act as 'ill-formed'."""
    if skips and not any(f.kind == "linear" and f.mapping == "packed" for f in forms):
        r = skips[0]
        raise SpecError(f"'skip' only changes how packed forms number code points, and no form here is packed: "
                        f"write 'ill-formed {_cp_text(r)}' to make these code points ill-formed, "
                        "or 'numbering packed'", r.loc)


def _check_numbering(forms, space: CodeRange, holes, skips) -> None:
    """A packed form must not number code points an earlier form already encodes.

    Packed numbering continues where the previous packed form ended (jumping
    over skips); an explicit 'at', or a direct form before it, can make two
    forms encode one code point, which no decoder can undo.
    """
    cap = space.hi
    skipped = RangeSet((r.lo, r.hi) for r in skips)
    excluded = RangeSet([(r.lo, r.hi) for r in holes + skips])
    cursor = space.lo
    earlier: list[tuple[Form, int, int]] = []  # (form, first, last code point it numbers)
    covered = RangeSet()  # the union of the earlier spans: most forms share nothing, found at once
    for form in forms:
        span = None
        if form.kind == "literal":
            span = (form.value, form.value)
        elif form.kind == "composite":
            hi, lo = form.items[0].sub, form.items[1].sub
            span = (0x10000 + ((hi.lo - 0xD800) << 10) + (lo.lo - 0xDC00),
                    0x10000 + ((hi.hi - 0xD800) << 10) + (lo.hi - 0xDC00))
        elif form.kind == "linear":
            size = 1
            for item in form.items:
                size *= item.digits.radix ** evaluate(item.count, {})
            if form.mapping == "direct":
                base = form.at or 0
                top = base + size - 1 if form.max is None else min(base + size - 1, form.max)
                span = (max(base, form.min or 0, space.lo), top)
            else:
                cp = first = form.at if form.at is not None else cursor
                left = size
                while left and (cap is None or cp <= cap):
                    inside = skipped.containing(cp)
                    if inside:
                        cp = inside[1] + 1
                        continue
                    nxt = skipped.next_start(cp)
                    n = left if nxt is None else min(left, nxt - cp)
                    cp, left = cp + n, left - n
                cursor = cp
                span = (first, cp - 1)
                shares = any(excluded.first_outside(a, b) is not None for a, b in covered.overlaps(first, cp - 1))
                for other, lo, hi in earlier if shares else ():  # the first earlier form it shares with
                    shared = excluded.first_outside(max(first, lo), min(cp - 1, hi))
                    if shared is None:
                        continue
                    top = max(h for _, _, h in earlier)
                    if form.at is not None:
                        raise SpecError(f"form '{form.name}' numbers U+{shared:04X} from 'at U+{form.at:04X}', "
                                        f"but form '{other.name}' already encodes it: remove 'at' or raise it "
                                        f"to U+{top + 1:04X}", form.option_locs["at"])
                    raise SpecError(f"form '{form.name}' numbers U+{shared:04X}, which form '{other.name}' already "
                                    f"encodes (packed numbering starts after the previous packed form): give it "
                                    f"'at U+{top + 1:04X}'", form.loc)
        if span is not None and span[0] <= span[1]:
            earlier.append((form, span[0], span[1] if cap is None else min(span[1], cap)))
            if earlier[-1][1] <= earlier[-1][2]:
                covered.add(*earlier[-1][1:])
