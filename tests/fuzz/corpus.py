"""The checked-in seed corpus, ``tests/fuzz/corpus/MODULE/NAME``: one raw fuzz case
per file (see differential.py for how a case is read), one folder per built-in
spec.  It grows with every bug found: the failing input is added, named by its
SHA-256, and the corpus replay (test_fuzz_corpus.py) keeps it fixed."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from encspec.spec.registry import module_name

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).resolve().parent / "corpus"


def folder(spec: str) -> Path:
    return CORPUS / module_name(spec)


def entries_in(path: Path) -> list[bytes]:
    """The cases in a corpus folder, in name order ([] when there is none)."""
    return [p.read_bytes() for p in sorted(path.iterdir()) if p.is_file()] if path.is_dir() else []


def entries(spec: str) -> list[bytes]:
    return entries_in(folder(spec))


def add(spec: str, case: bytes) -> Path:
    """Write *case* into the spec's corpus (named by its SHA-256; idempotent)."""
    path = folder(spec) / hashlib.sha256(case).hexdigest()[:16]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(case)
    return path


def vector_inputs(spec: str) -> list[bytes]:
    """The inputs of the spec's conformance vectors (generated/vectors/MODULE.jsonl)."""
    lines = (ROOT / "generated" / "vectors" / f"{module_name(spec)}.jsonl").read_text("utf-8").splitlines()
    return [bytes.fromhex(json.loads(line)["bytes"]) for line in lines]


if __name__ == "__main__":  # python tests/fuzz/corpus.py SPEC HEX|FILE: keep a failing input
    import sys
    spec, given = sys.argv[1], sys.argv[2]
    print(add(spec, Path(given).read_bytes() if Path(given).is_file() else bytes.fromhex(given)))
