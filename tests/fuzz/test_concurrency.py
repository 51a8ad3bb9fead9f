"""The native extension shared by threads: the same module decoding, encoding and
validating from 8 threads at once gives what it gives from one thread, for every
built-in spec (module-level state in the extension -- a memo, a buffer -- would show
here as a wrong or torn result)."""
from __future__ import annotations

import random
import threading

import pytest

import corpus
from codec_samples import load_backend
from conftest import native_builtin
from encspec.spec import registry

THREADS = 8
ROUNDS = 3


def operations(module, data: bytes, text: str) -> list:
    """The results of every native path on one input (errors as their reason)."""
    def attempt(call):
        try:
            return call()
        except UnicodeError as e:
            return (type(e).__name__, getattr(e, "start", None), getattr(e, "end", None), e.reason)
    calls = [
        lambda: module.decode(data),
        lambda: module.decode(data, "replace"),
        lambda: module.decode(data, "surrogateescape"),  # raises on a bad byte below 80
        lambda: module.decode_codepoints(data, "replace"),
        lambda: module.is_valid(data),
        lambda: module.first_error(data),
        lambda: module.encode(text),
        lambda: module.encode(text, "replace"),
        lambda: module.encode(text + "\ud800x\U0010ffff", "backslashreplace"),
    ]
    return [attempt(call) for call in calls]


@pytest.mark.parametrize("spec", [n for n in registry.builtin_names() if native_builtin(n)])
def test_threads_get_the_single_threaded_results(spec):
    module = load_backend(spec, "native")  # a skip naming it without the extension
    inputs = corpus.entries(spec) + corpus.vector_inputs(spec)[:40]
    cases = [(d, module.decode(d, "replace")) for d in inputs]
    want = [operations(module, d, t) for d, t in cases]
    start = threading.Barrier(THREADS)
    got: dict[int, list] = {}
    failures: list[BaseException] = []

    def work(k: int) -> None:
        try:
            order = list(range(len(cases)))
            random.Random(k).shuffle(order)  # each thread in its own order: different inputs at once
            start.wait()
            for _ in range(ROUNDS):
                results: list = [None] * len(cases)
                for i in order:
                    results[i] = operations(module, *cases[i])
                got.setdefault(k, results)
                if got[k] != results:
                    raise AssertionError(f"thread {k}: round results differ")
        except BaseException as e:  # noqa: BLE001 - reported below
            failures.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures, failures[:3]
    for k in range(THREADS):
        bad = [inputs[i].hex() for i, (g, w) in enumerate(zip(got[k], want)) if g != w]
        assert got[k] == want, f"thread {k}: {len(bad)} inputs differ, first {bad[:3]}"
