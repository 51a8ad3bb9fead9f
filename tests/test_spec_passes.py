"""The checks of a spec are named passes run in one fixed order (spec/passes/__init__.py).

Each pass has a spec here that it is the first to reject: every pass before it
accepts that spec, and the error raised is the one this pass returns, with its
message and position written by hand from the spec text below. The list of
passes is compared with the names written here, and every module function that
looks like a pass (one parameter, the Draft) must be in it.
"""
import importlib
import inspect
import pkgutil

import pytest

import encspec.spec.passes as passes
from encspec.spec.diagnostics import SpecError
from encspec.spec.parse import parse_text

ORDER = (
    "declarations", "required", "claims", "excluded_ranges", "code_unit", "signatures", "permutation", "forms",
    "skips", "numbering", "patterns", "modes", "digit_runs", "error_span", "encoder_entries", "reserved", "profile_rules",
    "unreachable",
)

HEAD = "encoding e\ncode-space U+0000..U+10FFFF\n"
ASCII = "form ascii: 0xxxxxxx\n"

# pass -> (spec text, line, column, message); a table file t.txt beside the spec holds pointer 0
REJECTED = {
    "declarations": (HEAD + 'title "a"\ntitle "b"\n' + ASCII,
                     4, 1, "'title' is given twice (first at line 3)"),
    "required": (HEAD, 1, 1, "the spec defines no form"),
    "claims": (HEAD + "claims nonsense\n" + ASCII, 3, 8, "unknown property 'nonsense'"),
    "excluded_ranges": ("encoding e\ncode-space U+0000..U+FFFF\nill-formed U+D800..U+10FFFF\n" + ASCII,
                        3, 12, "range U+D800..U+10FFFF reaches outside the code space U+0000..U+FFFF"),
    "code_unit": (HEAD + "code-unit 12\n" + ASCII, 3, 11, "a code unit has 8, 16 or 32 bits, not 12"),
    "signatures": (HEAD + "signature EF BB BF big-endian\n" + ASCII,
                   3, 20, "a signature can choose a byte order only in a spec of 16- or 32-bit code units"),
    "permutation": (HEAD + 'code-unit 16 big-endian\nbytes through "t.txt"\nform bmp: 0000..D7FF\n',
                    4, 1, "'bytes through' needs a spec of bytes"),
    "forms": (HEAD + ASCII + "form ascii: 80 = U+0080\n", 4, 6, "form 'ascii' is defined twice"),
    "skips": (HEAD + "skip U+D800..U+DFFF\n" + ASCII, 3, 6, "'skip' only changes how packed forms number"),
    "numbering": (HEAD + "numbering packed\n" + ASCII + "form more: 10xxxxxx at U+0000\n",
                  5, 24, "form 'more' numbers U+0000 from 'at U+0000', but form 'ascii' already encodes it"),
    "patterns": (HEAD + ASCII + 'ill-formed pattern ascii: C0 "no"\n',
                 4, 20, "'ascii' already names a form: give this ill-formed pattern a name of its own"),
    "modes": (HEAD + "mode a\n" + ASCII + "mode a\n", 5, 6, "mode 'a' is declared twice"),
    "digit_runs": (HEAD + ASCII + "digits b = 41..50\nrun r: 2B b 6 bits 16 bit units\n",
                   5, 13, "6 bits a digit need 2**6 digits; digits 'b' lists 16"),
    "error_span": (HEAD + "error-span maximal-subpart restore 80..BF\n" + ASCII,
                   3, 12, "'restore' goes with 'error-span through-failing-byte'"),
    "encoder_entries": (HEAD + "encode U+0041 as 41\nencode U+0041 as 42\n" + ASCII,
                        4, 1, "U+0041 is given to the encoder twice (first at line 3)"),
    "reserved": (HEAD + "code-unit 16 big-endian\nreserved C0\nform bmp: 0000..D7FF\n",
                 4, 1, "reserved lead bytes need a spec of bytes"),
    "profile_rules": (HEAD + ASCII + 'profile p: error missing signature "no mark"\n',
                      4, 12, "'missing signature' needs a 'signature' statement"),
    "unreachable": (HEAD + 'table t "t.txt" unreachable 0\n' + ASCII + "form big: 81 0xxxxxxx table t\n",
                    3, 29, "pointer 0 is not unreachable: the forms of table 't' reach pointers 0..127"),
}


def test_the_passes_are_listed_in_their_order():
    assert tuple(p.__name__ for p in passes.PASSES) == ORDER


def test_every_pass_defined_is_listed():
    """A function taking the draft alone is a pass: one written but not listed would never run."""
    listed = {(p.__module__, p.__name__) for p in passes.PASSES}
    found = set()
    for info in pkgutil.iter_modules(passes.__path__):
        module = importlib.import_module(f"{passes.__name__}.{info.name}")
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            params = list(inspect.signature(fn).parameters.values())
            if fn.__module__ == module.__name__ and len(params) == 1 and params[0].annotation == "Draft":
                found.add((fn.__module__, name))
    assert found == listed


def test_every_pass_has_a_spec_it_rejects():
    assert set(REJECTED) == set(ORDER)


@pytest.mark.parametrize("name", ORDER)
def test_a_pass_is_the_first_to_reject_its_spec(name, tmp_path, monkeypatch):
    text, line, column, message = REJECTED[name]
    (tmp_path / "t.txt").write_text("0\t0x4E00\n", "utf-8")
    path = str(tmp_path / "e.encspec")
    ran: list[tuple[str, bool]] = []

    def recorded(check):
        def run(draft):
            problems = check(draft)
            ran.append((check.__name__, any(isinstance(p, SpecError) for p in problems)))
            return problems
        return run

    monkeypatch.setattr(passes, "PASSES", tuple(recorded(p) for p in passes.PASSES))
    with pytest.raises(SpecError) as caught:
        parse_text(text, path)
    k = ORDER.index(name)
    assert ran == [(n, False) for n in ORDER[:k]] + [(name, True)]
    shown = caught.value.render().split("\n")
    assert shown[0].startswith(f"{path}:{line}:{column}: {message}")
    assert shown[2] == "    " + " " * (column - 1) + "^"


def test_a_spec_every_pass_accepts_runs_them_all(tmp_path, monkeypatch):
    ran: list[str] = []
    monkeypatch.setattr(passes, "PASSES", tuple(
        (lambda check: lambda draft: ran.append(check.__name__) or check(draft))(p) for p in passes.PASSES))
    spec = parse_text(HEAD + ASCII, str(tmp_path / "e.encspec"))
    assert ran == list(ORDER)
    assert [f.name for f in spec.forms] == ["ascii"]


@pytest.mark.parametrize("text, line, column, message", [
    (HEAD + ASCII + 'profile p: error U+0080.. "open"\n', 4, 18, "a profile rule needs closed code point ranges"),
    (HEAD + 'table t "t.txt" with 1..2 = U+0041 U+0042\n' + ASCII + "form big: 81 0xxxxxxx table t\n",
     3, 36, "a pointer range maps to one first code point (the rest follow it)"),
])
def test_statement_checks_left_to_the_declarations_pass(text, line, column, message, tmp_path):
    """Two checks the transformer used to make, now the declarations pass's: same message, same place."""
    (tmp_path / "t.txt").write_text("0\t0x4E00\n", "utf-8")
    path = str(tmp_path / "e.encspec")
    with pytest.raises(SpecError) as caught:
        parse_text(text, path)
    assert caught.value.render().split("\n")[0] == f"{path}:{line}:{column}: {message}"
