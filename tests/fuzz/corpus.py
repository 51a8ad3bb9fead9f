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


def leb128(cps: list[int]) -> bytes:
    """Code points as a case's encoder reads them (differential.py: unsigned LEB128 each)."""
    out = bytearray()
    for v in cps:
        while True:
            b, v = v & 0x7F, v >> 7
            out.append(b | (0x80 if v else 0))
            if not v:
                break
    return bytes(out)


def seed(spec: str) -> list[Path]:
    """A new spec's seeds (ten at least): its conformance vectors' inputs joined in eight
    groups, boundary code points for the encoder, a lone lead surrogate at the end, and
    every byte in both orders."""
    inputs = vector_inputs(spec)
    cases = [b"".join(inputs[k::8]) for k in range(8)]
    cases.append(leb128([0x41, 0x7F, 0x80, 0xFF, 0x100, 0x7FF, 0x800, 0xFFFD, 0xFFFF, 0x10000, 0x10FFFF]))
    cases.append(leb128([0x61, 0xD83D]))
    cases.append(leb128([0xE9, 0x20AC, 0x41, 0xFFFD]))  # Latin, then what a code page may lack
    cases += [bytes(range(256)), bytes(range(255, -1, -1))]  # a spec with few vectors: every byte
    return [add(spec, case) for case in dict.fromkeys(c for c in cases if c)]


if __name__ == "__main__":  # python tests/fuzz/corpus.py SPEC HEX|FILE: keep a failing input
    import sys  # python tests/fuzz/corpus.py --seed SPEC...: seed new specs' folders
    if sys.argv[1] == "--seed":
        for name in sys.argv[2:]:
            print(*seed(name), sep="\n")
        raise SystemExit(0)
    spec, given = sys.argv[1], sys.argv[2]
    try:
        is_file = Path(given).is_file()
    except OSError:  # a long hex string is no file name
        is_file = False
    print(add(spec, Path(given).read_bytes() if is_file else bytes.fromhex(given)))
