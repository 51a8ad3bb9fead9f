"""``encspec bench``'s output: one table per section, a summary of native over CPython,
the notes, and the same as JSON.

A cell is the column's speed in MB/s (of the payload read; of the bytes written for
encode) and, in brackets, its ratio to CPython's on CPU time; or ``n/a (why)``.
"""
from __future__ import annotations

from .run import COLUMNS, SECTIONS, SMALL_CALLS, Row

TITLES = {
    "decode": "DECODE (strict, valid text; token loop: the straightforward loop over module.tokens)",
    "incremental": "INCREMENTAL (strict decode through IncrementalDecoder in 4 KiB chunks, as streams, open() and "
                   "transcode read; CPython: its incremental decoder, the same chunks)",
    "replace": "REPLACE (decode of damaged text: 1% and 10% of the bytes made invalid)",
    "validate": "VALIDATE (is_valid; CPython: a strict decode; iconv -f X -t X; node: buffer.isUtf8 on the same bytes)",
    "encode": "ENCODE (MB/s of the bytes written; iconv from WCHAR_T)",
    "unencodable": "UNENCODABLE (encode with 1% and 10% of the characters ones neither writes; CPython: its "
                   "codec, the same handler; encspec-bench: a custom handler, replace's bytes; MB/s written)",
    "transcode": "TRANSCODE (encspec transcode's streaming path in-process; CPython: its incremental codecs, "
                 "the same chunks; iconv -f A -t B on a file; peak: memory traced during one call, flat "
                 "whatever the size)",
    "small": f"SMALL CALLS (bytes.decode(name) and str.encode(name) of 8-, 20- and 100-byte prefixes of the text, "
             f"{SMALL_CALLS} calls a timing, through the codec registry: the spec's codec under a name of its own; "
             f"CPython: its codec of the same text; the ratio is per call)",
}
EXTRA = {  # ratios beside the ones to CPython
    "decode": [("python", "token loop"), ("python", "oracle")],
    "validate": [("native", "node isUtf8")],
    "transcode": [("native", "iconv")],
}


def _columns(lines: list[list[str]]) -> str:
    widths = [max(len(str(line[i])) for line in lines) for i in range(len(lines[0]))]
    return "\n".join("  ".join(str(c).rjust(w) for c, w in zip(line, widths)) for line in lines)


def cell(row: Row, column: str) -> str:
    if column in row.na:
        return f"n/a ({row.na[column]})"
    v = row.mbps(column)
    if v is None:
        return "-"
    prefix = "*" if row.timed.get(column, row.size) < row.size else ""
    if column == "cpython":
        return f"{v:,.1f}{prefix}"
    r = row.ratio(column)
    return f"{v:,.1f}{prefix} ({r:.2f}x)" if r is not None else f"{v:,.1f}{prefix}"


def section_table(op: str, rows: list[Row]) -> str:
    columns = [c for c in COLUMNS if c in SECTIONS[op]]
    extra = EXTRA.get(op, [])
    head = ["spec", "corpus", "errors", "MB", "cpython codec"] + columns + [f"{a}/{b}" for a, b in extra]
    if op == "decode":
        head += ["native peak", "python peak"]
    if op == "transcode":
        head += ["native peak KiB"]
    lines = [head]
    for r in rows:
        cells = [r.spec, r.corpus, r.errors, f"{r.size / 1e6:.2f}", r.codec] + [cell(r, c) for c in columns]
        for a, b in extra:
            x = r.ratio(a, b)
            cells.append("-" if x is None else f"{x:.2f}x")
        if op == "decode":
            cells += [f"{r.peaks[b]:.2f}" if b in r.peaks else "-" for b in ("native", "python")]
        if op == "transcode":
            cells.append(f"{r.peak_kib['native']:,.0f}" if "native" in r.peak_kib else "-")
        lines.append(cells)
    return _columns(lines)


def table(rows: list[Row], summary_only: bool = False) -> str:
    """Every section that has rows (not with *summary_only*: a --catalogue run's ~130
    specs), then the summary and the notes."""
    parts = []
    for op in SECTIONS:
        some = [r for r in rows if r.op == op]
        if some and not summary_only:
            parts.append(f"{TITLES[op]}\n{section_table(op, some)}")
    if not summary_only and any(r.timed.get(c, r.size) < r.size for r in rows for c in r.timed):
        parts.append("* timed on a prefix of the payload (the pure-Python backend, the token loop, the oracle: "
                     "they are slow); MB/s and ratios are per byte, so they compare")
    parts.append("NATIVE / CPYTHON (CPU time, strict; replace: the mean of its rows; small: the least of its "
                 "rows)\n" + ratio_table(rows))
    notes = []
    for r in rows:
        for k, v in r.notes.items():
            if k == "iconv" and v.startswith("iconv -f") or k == "node TextDecoder" and v.startswith("TextDecoder("):
                continue  # the usual commands, not worth a line each
            line = f"  {r.spec} ({r.op}, {k}): {v}"
            if line not in notes:
                notes.append(line)
    if notes:
        parts.append("notes\n" + "\n".join(notes))
    return "\n\n".join(parts)


def ratio_table(rows: list[Row]) -> str:
    """Per spec (transcode: per pair), native over CPython for each section and corpus."""
    kinds = list(dict.fromkeys(r.corpus for r in rows))
    ops = [op for op in SECTIONS if any(r.op == op for r in rows)]
    head = ["spec"] + [f"{op} {k}" for op in ops if op != "transcode" for k in kinds]
    lines = [head]
    for spec in dict.fromkeys(r.spec for r in rows if r.op != "transcode"):
        cells = [spec]
        for op in ops:
            if op == "transcode":
                continue
            for k in kinds:
                ratios = [r.ratio("native") for r in rows if r.spec == spec and r.op == op and r.corpus == k]
                known = [g for g in ratios if g is not None]
                if known:  # small calls: the goal holds for each size, so the worst one
                    cells.append(f"{min(known) if op == 'small' else sum(known) / len(known):.2f}x")
                else:
                    cells.append("-")
        lines.append(cells)
    text = _columns(lines) if len(lines) > 1 else ""
    pairs = list(dict.fromkeys(r.spec for r in rows if r.op == "transcode"))
    if pairs:
        lines = [["transcode"] + [f"{k} /cpython" for k in kinds] + [f"{k} /iconv" for k in kinds]]
        for pair in pairs:
            got = {r.corpus: r for r in rows if r.op == "transcode" and r.spec == pair}
            lines.append([pair] + [_fmt(got[k].ratio("native")) if k in got else "-" for k in kinds]
                         + [_fmt(got[k].ratio("native", "iconv")) if k in got else "-" for k in kinds])
        text += ("\n\n" if text else "") + _columns(lines)
    return text


def _fmt(x) -> str:
    return "-" if x is None else f"{x:.2f}x"


def as_json(rows: list[Row]) -> list[dict]:
    out = []
    for r in rows:
        out.append({
            "op": r.op, "spec": r.spec, "corpus": r.corpus, "errors": r.errors, "bytes": r.size,
            "cpython_codec": r.codec,
            "cpu_seconds": {k: v for k, v in r.seconds.items()},
            "bytes_timed": dict(r.timed),
            "mb_per_s": {k: round(m, 3) for k in r.seconds if (m := r.mbps(k)) is not None},  # all: timed
            "ratio_to_cpython": {k: round(x, 4) for k in r.seconds if (x := r.ratio(k)) is not None},
            "na": dict(r.na),
            "peak_memory_over_result": {k: round(v, 3) for k, v in r.peaks.items()},
            "peak_kib": {k: round(v, 1) for k, v in r.peak_kib.items()},
            "notes": dict(r.notes),
        })
    return out
