"""Validation in parallel (chunks, processes, Dask) gives exactly the sequential result."""
from __future__ import annotations

import os
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import encspec
from conftest import cut_at, examples
from conftest import run_cli as run
from encspec.analyse import split
from encspec.io import parallel, stream
from encspec.pipeline import load as load_automaton

SELF_SYNC = ["utf-8", "corrected-utf-8", "wtf-8", "cesu-8", "utf-8-rfc2279", "utf-inf-8", "utf-8-bom"]
NOT_SELF_SYNC = ["mutf-8", "utf-1", "fss-utf-1992"]
MODULES = {name: encspec.load(name) for name in SELF_SYNC + NOT_SELF_SYNC}


def sequential(name, path, limit=None, chunk_size=None):
    with open(path, "rb") as f:
        return stream.validate_stream(MODULES[name], stream.Input(f, str(path), os.path.getsize(path)),
                                      limit, chunk_size)


# --------------------------------------------------------------- sync bytes
def test_sync_bytes_come_from_the_automaton():
    def sync(name):
        return split.sync_bytes(load_automaton(name)[1])
    assert sync("utf-8") == frozenset(range(0x80)) | frozenset(range(0xC2, 0xF5))
    assert 0xED not in sync("wtf-8")           # ED may continue a (surrogate pair) error
    assert sync("cesu-8") == frozenset(range(0x80)) | frozenset(range(0xC2, 0xF0)) - {0xED}
    assert {0xFE, 0xFF} <= sync("corrected-utf-8") and not sync("corrected-utf-8") & frozenset(range(0x80, 0xC0))
    for name in SELF_SYNC:
        assert cut_at(name) is not None, name
    for name in NOT_SELF_SYNC:
        assert cut_at(name) is None, name


def test_non_self_synchronizing_files_are_one_task(tmp_path):
    f = tmp_path / "m.bin"
    f.write_bytes(MODULES["mutf-8"].encode("abc\U00010000\n" * 1000))
    ref = parallel.spec_ref("mutf-8")
    starts, tasks = parallel.plan(ref, str(f), f.stat().st_size, None, 100, cut_at(ref))
    assert starts == [0] and len(tasks) == 1
    starts, tasks = parallel.plan(parallel.spec_ref("utf-8"), str(f), f.stat().st_size, None, 100, cut_at("utf-8"))
    assert len(tasks) > 10


def test_signature_is_never_cut(tmp_path):
    m = MODULES["corrected-utf-8"]
    f = tmp_path / "s.bin"
    f.write_bytes(m.encode("x\n" * 10, signature=True))
    pattern, sig = cut_at("corrected-utf-8")
    starts = parallel.sync_points(str(f), f.stat().st_size, [1, 2, 3, 4, 5, 6, 7], pattern, sig)
    assert starts == [0, 8]   # 00 and 0A inside the magic number are sync bytes, but not there


def test_an_error_cut_short_by_a_chunk_is_rescanned_across_the_cut(tmp_path):
    f = tmp_path / "e.bin"
    f.write_bytes(b"aaaa\xe1\x80bbbb")
    ref = parallel.spec_ref("utf-8")
    part = parallel.run_task(parallel.Task(ref, str(f), 0, 6))
    assert part.problems[-1][stream.REASON] == "unexpected end of data"   # alone, the chunk cannot know
    rep = parallel.validate_chunked("utf-8", str(f), [5], cut_at=cut_at("utf-8"))
    assert [(p.start, p.end, p.reason) for p in rep.problems] == [(4, 6, "invalid continuation byte")]
    assert rep.key() == sequential("utf-8", f).key()


# ------------------------------------------------------ chunks, any cuts
@st.composite
def documents(draw, names=SELF_SYNC):
    """Atoms that make chunk boundaries interesting: whole sequences, cut-short ones,
    stray continuation bytes, reserved runs, newlines, signatures, random bytes."""
    name = draw(st.sampled_from(names))
    m = MODULES[name]
    out = []
    if m.SIGNATURE and draw(st.booleans()):
        out.append(m.SIGNATURE)
    for _ in range(draw(st.integers(0, 40))):
        k = draw(st.integers(0, 6))
        cp = draw(st.one_of(st.integers(0, 0x7F), st.integers(0x80, 0x10FFFF), st.integers(0x110000, 0x8421109F)))
        seq = m.encode([cp], "ignore")
        if k == 0:
            out.append(seq)
        elif k == 1:
            out.append(seq[:-1] if len(seq) > 1 else seq)
        elif k == 2:
            out.append(bytes(draw(st.lists(st.integers(0x80, 0xBF), min_size=1, max_size=3))))
        elif k == 3:
            out.append(bytes([draw(st.sampled_from([0xFE, 0xFF, 0xC0, 0xED, 0xF5]))]))
        elif k == 4:
            out.append(b"\n")
        elif k == 5:
            out.append(draw(st.binary(max_size=4)))
        else:
            out.append(m.SIGNATURE or b"\xed\xa0\x80\xed\xb0\x80")
    return name, b"".join(out)


def _file(data: bytes) -> str:
    fd, path = tempfile.mkstemp(prefix="encspec-par-")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    return path


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.lists(st.integers(1, 400), max_size=8), st.one_of(st.none(), st.integers(1, 6)),
       st.integers(1, 7))
def test_any_cuts_give_the_sequential_result(doc, cuts, limit, chunk_size):
    name, data = doc
    path = _file(data)
    try:
        stream_chunk = stream.CHUNK_SIZE
        stream.CHUNK_SIZE = chunk_size           # workers read in tiny pieces too
        try:
            got = parallel.validate_chunked(name, path, cuts, limit, cut_at=cut_at(name))
        finally:
            stream.CHUNK_SIZE = stream_chunk
        want = sequential(name, path, limit)
        assert got.key() == want.key()
    finally:
        os.unlink(path)


# ---------------------------------------------------------- process pools
def _mixed_file(path, name, n_lines=4000, seed=3):
    import random
    rnd = random.Random(seed)
    m = MODULES[name]
    lines = []
    for _i in range(n_lines):
        text = " ".join(rnd.choice(["ab", "çà", "日本", "\U0001F600", "x" * 20]) for _ in range(rnd.randint(1, 8)))
        b = m.encode(text + "\n")
        if rnd.random() < 0.05:
            cut = rnd.randrange(len(b))
            b = b[:cut] + rnd.choice([b"\x80", b"\xe1\x80", b"\xfe\x80", b"\xff"]) + b[cut:]
        lines.append(b)
    path.write_bytes(b"".join(lines))


def test_many_files_and_split_files_on_a_process_pool(tmp_path, capsys):
    for k, name in enumerate(["a", "b", "c", "d"]):
        _mixed_file(tmp_path / f"{name}.txt", "corrected-utf-8", 1000 + 700 * k, seed=k)
    rc1, out1, err1 = run(capsys, "validate", "corrected-utf-8", "--json", "-j", "1", tmp_path)
    rc2, out2, err2 = run(capsys, "validate", "corrected-utf-8", "--json", "-j", "2", "--split-size", "7K", tmp_path)
    assert (rc1, err1) == (rc2, err2) == (1, "")
    assert out1 == out2
    assert len(out1.splitlines()) == 4
    reports = list(parallel.validate_files("corrected-utf-8", sorted(str(p) for p in tmp_path.iterdir()),
                                           jobs=2, split_size=5000, limit=7,
                                           cut_at=cut_at("corrected-utf-8")))
    for rep in reports:
        assert rep.key() == sequential("corrected-utf-8", rep.path, 7).key()


def test_split_file_with_max_errors_matches(tmp_path, capsys):
    f = tmp_path / "big.txt"
    _mixed_file(f, "utf-8", 20000)
    for limit in ("1", "40", "100000"):
        seq = run(capsys, "validate", "utf-8", f, "-j", "1", "--max-errors", limit)
        par = run(capsys, "validate", "utf-8", f, "-j", "2", "--split-size", "10K", "--max-errors", limit)
        assert seq == par
        assert seq[0] == 1


# -------------------------------------------------------------------- Dask
@pytest.fixture(scope="module")
def cluster():
    import distributed  # the test extra installs dask[distributed]
    with distributed.LocalCluster(n_workers=2, processes=False, threads_per_worker=1,
                                  dashboard_address=None) as c:
        yield c


def test_dask_cluster_gives_the_local_results(tmp_path, capsys, cluster):
    for k in range(3):
        _mixed_file(tmp_path / f"f{k}.txt", "wtf-8", 1500, seed=10 + k)
    local = run(capsys, "validate", "wtf-8", "--json", "-j", "1", tmp_path)
    dask = run(capsys, "validate", "wtf-8", "--json", "--dask", cluster.scheduler_address,
               "--split-size", "8K", tmp_path)
    assert local == dask and local[0] == 1
    f = tmp_path / "f0.txt"
    for cuts in ([1000, 5000, 20000], list(range(97, 60000, 4099))):
        rep = parallel.validate_chunked("wtf-8", str(f), cuts, dask=cluster.scheduler_address, cut_at=cut_at("wtf-8"))
        assert rep.key() == sequential("wtf-8", f).key()


def test_dask_local_and_bad_addresses(tmp_path, capsys):
    f = tmp_path / "x.txt"
    f.write_bytes(b"ok\n\xff")
    rc, out, err = run(capsys, "validate", "utf-8", f, "--dask", "local", "-j", "1")
    assert (rc, out, err) == (1, f"{f}:2:1: error: invalid start byte: FF (byte 3)\n{f}: invalid: 1 error\n", "")
    rc, out, err = run(capsys, "validate", "utf-8", f, "--dask", "nonsense://x")
    assert (rc, out) == (2, "")
    assert err.startswith("encspec: error: --dask nonsense://x: cannot reach the scheduler (unknown address scheme")
    assert len(err.splitlines()) == 1
