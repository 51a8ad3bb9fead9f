"""Validation in parallel: many files over all cores, a large file in chunks, or a Dask cluster.

The unit of work is a :class:`Task`: one byte range of one file, scanned by
:class:`encspec.io.stream.Scanner` (a top-level function, :func:`run_task`, so
process pools and Dask workers can run it; workers read the file themselves,
so only paths and results travel).

A large file is split only for a self-synchronizing encoding, and only when
the caller hands over where it may be cut (``cut_at``: the sync bytes, which
:func:`encspec.analyse.split.cut_at` finds in the automaton; io never runs an
analysis itself).  Each nominal cut moves forward to the next *sync byte*: a
byte that can start a sequence (a live transition from state 0) and never
continues one (no live transition from any other state, no digit of a counted
form).  The sequential scan always
starts a token at such a byte — every byte after a token's first was read by a
transition from a state other than 0 — so a chunk ends where a token ends and
its scan matches the sequential one, except for how its last token ends: an
error cut short by the end of the chunk says ``unexpected end of data`` where
the whole file says what the following byte did.  :func:`stitch` re-scans that
token sequentially across the cut, then places every problem at its line and
column from the chunks before it.  The result is identical to
:func:`encspec.io.stream.validate_stream`.
"""
from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from . import stream
from .stream import END, KIND, REASON, START, InputError, Report, Scanner, os_error_message, place, report_from

SPLIT_SIZE = 16 << 20     # a file is split into chunks of about this size (when that helps)
_WINDOW = 64 << 10        # bytes read at a time while looking for a sync byte


@lru_cache(maxsize=64)
def _module(spec: str):
    from ..codec import load
    return load(spec)


def spec_ref(spec: str) -> str:
    """A reference to *spec* that any worker resolves alike: an absolute spec path."""
    from ..spec import registry
    return str(registry.find(spec).resolve())


# ------------------------------------------------------------------ sync bytes
def sync_points(path: str, size: int, nominal: Iterable[int], pattern, signature: bytes) -> list[int]:
    """Chunk starts: 0, then for each nominal cut the first sync byte at or after it
    (never inside the signature; cuts with no sync byte before the next one are dropped)."""
    nominal = sorted(c for c in set(nominal) if 0 < c < size)
    starts = [0]
    with open(path, "rb") as f:
        floor = 1
        if signature and f.read(len(signature)) == signature:
            floor = len(signature)
        for k, cut in enumerate(nominal):
            at = max(cut, floor, starts[-1] + 1)
            stop = nominal[k + 1] if k + 1 < len(nominal) else size
            while at < stop:
                f.seek(at)
                window = f.read(min(_WINDOW, stop - at))
                if not window:
                    break
                m = pattern.search(window)
                if m:
                    starts.append(at + m.start())
                    break
                at += len(window)
    return starts


# ----------------------------------------------------------------------- tasks
@dataclass(frozen=True)
class Task:
    """Scan bytes [start, end) of a file (end None: to its end); at_start: where the signature may be."""

    spec: str
    path: str
    start: int = 0
    end: int | None = None
    at_start: bool = True
    limit: int | None = None


@dataclass
class Part:
    """What a task found: problem tuples, and newlines/characters to place what follows."""

    problems: list
    newlines: int = 0
    chars: int = 0
    done: bool = False
    size: int = 0
    error: str | None = None


def run_task(task: Task, bar=None) -> Part:
    """Scan one task's byte range (runs in a worker)."""
    module = _module(task.spec)
    try:
        f = open(task.path, "rb")
    except OSError as e:
        return Part([], error=os_error_message(task.path, e))
    scanner = Scanner(module, at_start=task.at_start, offset=task.start, limit=task.limit)
    found = []
    size = 0
    try:
        with f:
            if task.start:
                f.seek(task.start)
            left = None if task.end is None else task.end - task.start
            while left is None or left > 0:
                chunk = f.read(stream.CHUNK_SIZE if left is None else min(stream.CHUNK_SIZE, left))
                if not chunk:
                    break
                size += len(chunk)
                if left is not None:
                    left -= len(chunk)
                if bar is not None:
                    bar.update(len(chunk))
                found += scanner.feed(chunk)
                if scanner.done:
                    break
    except OSError as e:
        return Part([], error=os_error_message(task.path, e))
    if not scanner.done:
        found += scanner.feed(b"", final=True)
    return Part(found, scanner.newlines, scanner.chars, scanner.done, size)


def _rescan(module, path: str, p: tuple, end: int, size: int) -> tuple:
    """The error *p* ending at a cut, scanned again with the byte after the cut."""
    with open(path, "rb") as f:
        f.seek(p[START])
        window = f.read(end + 1 - p[START])
    tok = module.next_token(window, 0, 0, p[START] + len(window) >= size)[0]
    if tok is None or tok[0] != "error" or p[START] + tok[2] != p[END]:  # the cut is at a token boundary
        raise AssertionError(f"{path}: re-scan at byte {p[START]} gave {tok}, chunk gave {p}")
    return p[:REASON] + (tok[4],) + p[REASON + 1:]


def stitch(spec: str, path: str, size: int, starts: list[int], parts: list[Part],
           limit: int | None = None) -> Report:
    """One file's report from its chunks' parts (see the module docstring)."""
    module = _module(spec)
    placed = []
    newlines = chars = count = 0
    truncated = False
    for k, part in enumerate(parts):
        if part.error is not None:
            return Report(path, size, error=part.error)
        found = part.problems
        end = starts[k + 1] if k + 1 < len(starts) else size
        if k + 1 < len(parts) and found and found[-1][KIND] == "error" and found[-1][END] == end:
            found = found[:-1] + [_rescan(module, path, found[-1], end, size)]
        for p in found:
            placed.append(place(p, newlines, chars))
            if p[KIND] != "signature":
                count += 1
                if limit is not None and count >= limit:
                    truncated = True
                    break
        if truncated:
            break
        if part.newlines:
            newlines += part.newlines
            chars = part.chars
        else:
            chars += part.chars
    return report_from(path, size, placed, truncated)


def plan(spec: str, path: str, size: int, limit: int | None, split_size: int | None, cut_at=None):
    """``(starts, tasks)`` for one file: chunks if it is large and *cut_at* (``(sync byte
    pattern, signature)``, from :func:`encspec.analyse.split.cut_at`) says where it may be cut."""
    if split_size is not None and size > split_size:
        if cut_at is not None:
            pattern, signature = cut_at
            starts = sync_points(path, size, range(split_size, size, split_size), pattern, signature)
            ends = starts[1:] + [size]
            return starts, [Task(spec, path, s, e, s == 0, limit) for s, e in zip(starts, ends)]
    return [0], [Task(spec, path, 0, None, True, limit)]


# ------------------------------------------------------------------- executors
class _InProcess:
    def __init__(self, bar):
        self.bar = bar

    def map(self, tasks):
        for t in tasks:
            yield run_task(t, self.bar)

    def close(self):
        pass


class _Pool:
    """Tasks on a process pool (a thread pool if processes cannot be had), results in order."""

    def __init__(self, jobs: int, bar):
        from concurrent.futures import ProcessPoolExecutor
        self.pool = ProcessPoolExecutor(max_workers=jobs)
        self.bar = bar

    def map(self, tasks):
        futures = [self.pool.submit(run_task, t) for t in tasks]
        for _t, fut in zip(tasks, futures):
            part = fut.result()
            self.bar.update(part.size)
            yield part

    def close(self):
        self.pool.shutdown(wait=True, cancel_futures=True)


class _Dask:
    """Tasks on a Dask cluster: a scheduler's address, or ``local`` for a LocalCluster here."""

    def __init__(self, address: str, jobs: int, bar):
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise InputError("--dask needs dask.distributed (pip install 'encspec[dask]')") from None
        self.cluster = None
        self.bar = bar
        try:
            if address == "local":
                self.cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, dashboard_address=":0")
                self.client = Client(self.cluster)
            else:
                self.client = Client(address, timeout="10s")
        except (OSError, TimeoutError, ValueError) as e:
            if self.cluster is not None:
                self.cluster.close()
            raise InputError(f"--dask {address}: cannot reach the scheduler ({e})") from None

    def map(self, tasks):
        futures = [self.client.submit(run_task, t, pure=False) for t in tasks]
        for fut in futures:
            part = fut.result()
            self.bar.update(part.size)
            yield part

    def close(self):
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def executor(jobs: int, dask: str | None, bar, n_tasks: int):
    """Where tasks run: Dask if asked, a process pool for jobs > 1, else this process."""
    if dask:
        return _Dask(dask, jobs, bar)
    if jobs > 1 and n_tasks > 1:
        return _Pool(jobs, bar)
    return _InProcess(bar)


def validate_files(spec: str, paths: list[str], *, jobs: int | None = None, limit: int | None = None,
                   split_size: int | None = SPLIT_SIZE, dask: str | None = None, bar=None,
                   sizes: dict | None = None, cut_at=None) -> Iterator[Report]:
    """Reports for regular files *paths*, in order, their tasks spread over *jobs* processes
    (default: all cores) or a Dask cluster.  Files are split only when that can help and
    *cut_at* (:func:`encspec.analyse.split.cut_at`) says where they may be cut."""
    from .stream import NoBar
    bar = bar if bar is not None else NoBar()
    ref = spec_ref(spec)
    jobs = jobs or os.cpu_count() or 1
    parallel = jobs > 1 or bool(dask)
    layout: list[tuple | Report] = []  # per file: (path, size, starts, first task index, task count) or a Report
    tasks: list = []
    for path in paths:
        try:
            size = sizes[path] if sizes and path in sizes else os.stat(path).st_size
        except OSError as e:
            layout.append(Report(path, error=os_error_message(path, e)))
            continue
        starts, file_tasks = plan(ref, path, size, limit, split_size if parallel else None, cut_at)
        layout.append((path, size, starts, len(tasks), len(file_tasks)))
        tasks += file_tasks
    run = executor(jobs, dask, bar, len(tasks))
    try:
        parts = run.map(tasks)
        for entry in layout:
            if isinstance(entry, Report):
                yield entry
                continue
            path, size, starts, _, n = entry
            got = [next(parts) for _ in range(n)]
            yield stitch(ref, path, size, starts, got, limit)
    finally:
        run.close()


def validate_chunked(spec: str, path: str, nominal: Iterable[int], limit: int | None = None,
                     jobs: int = 1, dask: str | None = None, *, cut_at) -> Report:
    """Validate one file cut near the given offsets (for tests: any cuts must give the sequential result)."""
    from .stream import NoBar
    ref = spec_ref(spec)
    size = os.stat(path).st_size
    if cut_at is None:
        raise ValueError(f"{spec} is not self-synchronizing: its files cannot be split")
    pattern, signature = cut_at
    starts = sync_points(path, size, nominal, pattern, signature)
    tasks = [Task(ref, path, s, e, s == 0, limit) for s, e in zip(starts, starts[1:] + [size])]
    run = executor(jobs, dask, NoBar(), len(tasks))
    try:
        parts = list(run.map(tasks))
    finally:
        run.close()
    return stitch(ref, path, size, starts, parts, limit)
