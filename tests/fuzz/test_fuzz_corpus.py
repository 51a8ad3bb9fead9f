"""The fuzz harness in the default suite: the checked-in corpus replays clean (native
against Python, incremental and stream use against one-shot, for every built-in spec),
and the harness's own parts (how a case is read, what counts as a finding) can fail.
The time-budgeted, sanitized run is run.py (.ci/run), tested in test_fuzz_run.py."""
from __future__ import annotations

import types

import pytest

import corpus
import differential
import encspec
from codec_samples import load_backend
from conftest import native_builtin, representative_builtins
from encspec.spec import registry

# the single-byte catalogue's code pages are alike but for their tables, each checked
# byte for byte against its reference: its stand-ins are fuzzed for all of them.  The
# harness is differential (native against Python): every spec with a native backend,
# those with modes too (hz, whatwg-iso-2022-jp)
SPECS = [s for s in representative_builtins() if native_builtin(s)]


def test_every_builtin_spec_has_a_seed_corpus():
    assert sorted(p.name for p in corpus.CORPUS.iterdir()) == sorted(registry.module_name(s) for s in SPECS)
    for spec in SPECS:
        assert len(corpus.entries(spec)) >= 10, spec


@pytest.mark.parametrize("spec", SPECS)
def test_corpus_replays_clean(spec):
    """Every corpus entry: no crash, the two backends alike, split use as one-shot use."""
    python = encspec.load(spec, backend="python")
    native = load_backend(spec, "native")  # a skip naming it without the extension
    assert native is not python and python._NATIVE is None
    findings = [(case.hex(), f) for case in corpus.entries(spec) for f in differential.check(case, native, python)]
    assert not findings, findings[:10]


def test_a_case_reads_as_leb128_code_points():
    values = [0x41, 0xD800, 0xDBFF, 0xDFFF, 0x10FFFF, 0x110000, 0x7FFFFFFF, 0]
    assert differential.code_points(corpus.leb128(values)) == values
    assert differential.code_points(b"\x41\x80\xB0\x03") == [0x41, 0xD800]
    assert differential.code_points(b"\xFF") == [0x7F]  # an unfinished last number ends there


def test_splits_are_the_cases_own():
    case = b"some case"
    cuts = differential.splits(case, 50, "x")
    assert cuts == differential.splits(case, 50, "x") == sorted(cuts)
    assert all(0 <= c <= 50 for c in cuts)
    assert differential.pieces("abcdef", [2, 2, 5]) == ["ab", "", "abc"[2:] + "de", "f"]


class _Altered(types.ModuleType):
    """The native module with one function replaced (everything else passed through)."""

    def __init__(self, base, **replaced):
        super().__init__(base.__name__)
        self.__dict__.update(vars(base))
        self.__dict__.update(replaced)


def test_check_reports_a_difference_between_backends():
    python = encspec.load("utf-8", backend="python")
    native = load_backend("utf-8", "native")
    case = b"A\xC3\xA9\xFF"
    assert differential.check(case, native, python) == []
    wrong = _Altered(native, decode=lambda data, errors="strict", surrogates=True: native.decode(data, errors)[:-1])
    found = differential.check(case, wrong, python)
    assert any(f.startswith("native decode replace:") for f in found), found


def test_check_reports_an_exception_as_a_crash():
    python = encspec.load("utf-8", backend="python")
    native = load_backend("utf-8", "native")

    def broken(data):
        raise ValueError("boom")
    found = differential.check(b"A", _Altered(native, tokens=broken), python)
    assert "native tokens: ('CRASH', 'ValueError', 'boom')" in found


def test_check_reports_incremental_use_that_differs_from_one_shot():
    python = encspec.load("utf-8", backend="python")

    class Dropping(python.IncrementalDecoder):
        def decode(self, input, final=False):
            return super().decode(input, final)[:1]
    info = python.getregentry()
    altered = _Altered(python, getregentry=lambda signature=False: types.SimpleNamespace(
        incrementaldecoder=Dropping, incrementalencoder=info.incrementalencoder,
        streamreader=info.streamreader, streamwriter=info.streamwriter))
    found = differential.check(b"ABCDEFGH", None, altered)
    assert any(f.startswith("python IncrementalDecoder replace at") for f in found), found


def test_encoder_cuts_keep_surrogate_pairs_whole():
    """Where a spec joins a lead and a trail surrogate, no piece starts with the trail."""
    text = "A\ud83d\ude00\udc00B"
    assert differential.whole_pairs(text, [0, 2, 3, 4, 5]) == [0, 4, 4, 4, 5]
    assert differential.whole_pairs([0x41, 0xD83D, 0xDE00], [2, 3]) == [3, 3]
