"""The real TextDecoder of a browser (Debian's Chromium, headless) and of Node.js, in batches.

``chromium_decode(label, inputs)`` and ``node_decode(label, inputs)`` return, for each
input (bytes), a pair ``(code_points, fatal_throws)``: the code points of
``new TextDecoder(label).decode(input)`` (replacement mode: U+FFFD for each error) and
whether ``new TextDecoder(label, {fatal: true}).decode(input)`` throws.  Code points are
ints (a lone surrogate in the JavaScript string is its own value), never ``str``, so a
surrogate survives the trip.

By default every input gets a fresh pair of decoders, so that each answer depends on
its input alone.  ``fresh=False`` uses one pair per call for all the inputs in turn, and
``*_decode_sequences(label, sequences)`` one pair per sequence: the standard says that
is the same (``decode()`` without ``stream`` starts "a new instance of this's encoding's
decoder"), and these show the state an implementation carries from one call to the next.
``*_decode_many({label: inputs})`` runs several labels in one process.

Chromium: the inputs are embedded (base64 and a JSON list of lengths) in an HTML page
(``<meta charset="utf-8">``) written to a temporary folder, which
``chromium --headless ... --dump-dom file://...`` loads; the page's script decodes
everything, writes one JSON document into a <pre>, and removes its scripts so that the
dumped DOM is little more than that JSON.  A page holds up to ``PAGE_INPUTS`` inputs
(more are split over several pages, one Chromium run each; 600,000 inputs of one to
four bytes make a dump of about 10 MB and take some ten seconds).  Node: a script
reads the same JSON from a file and prints the answer.

A missing tool skips the calling test naming it (or fails it under
ENCSPEC_REQUIRE_TOOLS=1), as tests/tools.py does for the other real implementations.
"""
from __future__ import annotations

import base64
import html
import json
import re
import subprocess
import tempfile
from functools import cache
from pathlib import Path

import tools

PAGE_INPUTS = 1_000_000    # inputs per Chromium page
TIMEOUT = 300              # seconds for one Chromium page or one Node run

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]


@cache
def _chromium_path() -> str:
    return tools.find("chromium", hint="it is in Debian's chromium package")


def tool(name: str, package: str) -> str:
    """The path of ``name``, or a skip (failure under ENCSPEC_REQUIRE_TOOLS=1) naming ``package``."""
    if name == "chromium":
        return tools.need(_chromium_path)
    if name == "node":
        return tools.need(tools.node)
    return tools.need(lambda: tools.find(name, hint=f"it is in Debian's {package} package"))


# The decoding loop, shared by the page and the Node script.  A job is
# [label, base64 of the inputs' bytes, [input lengths], [group sizes]]: each group of
# consecutive inputs is decoded by one new pair of TextDecoders (lenient and fatal).
# The answer: one list per job of [throws, code point...] per input (throws is 1 when the
# fatal decoder throws).  An unknown label makes TextDecoder throw a RangeError, which
# fails the whole batch.
JS_DECODE = r"""
function codePoints(s) {
  const r = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.codePointAt(i);
    r.push(c);
    if (c > 0xFFFF) i++;
  }
  return r;
}
function decodeAll(jobs, fromBase64) {
  Error.stackTraceLimit = 0;          // a fatal decoder throws for most inputs: keep throwing cheap
  return jobs.map(([label, b64, lengths, groups]) => {
    const all = fromBase64(b64);
    const out = [];
    let at = 0, k = 0;
    for (const size of groups) {
      const lenient = new TextDecoder(label);
      const fatal = new TextDecoder(label, {fatal: true});
      for (let j = 0; j < size; j++, k++) {
        const bytes = all.subarray(at, at + lengths[k]);
        at += lengths[k];
        let throws = 0;
        try { fatal.decode(bytes); } catch (e) { throws = 1; }
        out.push([throws].concat(codePoints(lenient.decode(bytes))));
      }
    }
    return out;
  });
}
"""

PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>TextDecoder batch</title></head>
<body><pre id="out">not run</pre>
<script id="data" type="application/json">%(data)s</script>
<script>
%(js)s
(function () {
  const out = document.getElementById("out");
  try {
    const jobs = JSON.parse(document.getElementById("data").textContent);
    const fromBase64 = (b64) => {
      const raw = atob(b64);
      const all = new Uint8Array(raw.length);
      for (let i = 0; i < raw.length; i++) all[i] = raw.charCodeAt(i);
      return all;
    };
    out.textContent = "RESULT" + JSON.stringify(decodeAll(jobs, fromBase64)) + "END";
  } catch (e) {
    out.textContent = "FAILED " + e;
  }
  for (const s of Array.from(document.querySelectorAll("script"))) s.remove();
})();
</script>
</body></html>
"""

NODE_SCRIPT = """
%(js)s
const jobs = JSON.parse(require("fs").readFileSync(process.argv[2], "utf8"));
const fromBase64 = (b64) => new Uint8Array(Buffer.from(b64, "base64"));
process.stdout.write(JSON.stringify(decodeAll(jobs, fromBase64)));
"""


# ------------------------------------------------------------------ batches
def _job(label: str, sequences: list) -> list:
    inputs = [bytes(x) for seq in sequences for x in seq]
    return [label, base64.b64encode(b"".join(inputs)).decode("ascii"),
            [len(x) for x in inputs], [len(seq) for seq in sequences]]


def _split(rows: list, counts: list) -> list:
    out, at = [], 0
    for n in counts:
        out.append([(row[1:], bool(row[0])) for row in rows[at:at + n]])
        at += n
    return out


def _check(answer: list, jobs: list, who: str):
    if len(answer) != len(jobs):
        raise AssertionError(f"{who} answered {len(answer)} of {len(jobs)} jobs")
    for rows, job in zip(answer, jobs):
        if len(rows) != len(job[2]):
            raise AssertionError(f"{who} answered {len(rows)} of {len(job[2])} {job[0]} inputs")


def _chromium_page(exe: str, jobs: list, work: Path) -> list:
    path = work / "decode.html"
    data = json.dumps(jobs).replace("</", "<\\/")
    path.write_text(PAGE % {"data": data, "js": JS_DECODE}, "utf-8")
    cmd = [exe, *CHROMIUM_FLAGS, f"--user-data-dir={work / 'profile'}", "--dump-dom", path.as_uri()]
    proc = subprocess.run(cmd, capture_output=True, timeout=TIMEOUT)
    dom = proc.stdout.decode("utf-8", "replace")
    m = re.search(r'<pre id="out">(.*?)</pre>', dom, re.S)
    if proc.returncode != 0 or m is None or not m[1].startswith("RESULT"):
        raise AssertionError(f"chromium exited {proc.returncode}; page said "
                             f"{(m[1][:500] if m else dom[:500])!r}; stderr:\n"
                             + proc.stderr.decode("utf-8", "replace")[-3000:])
    text = html.unescape(m[1])
    if not text.endswith("END"):
        raise AssertionError("the dumped DOM was cut short")
    answer = json.loads(text[len("RESULT"):-len("END")])
    _check(answer, jobs, "chromium")
    return answer


def _pages(batch: list):
    """Split [(label, sequences)] into pages of at most PAGE_INPUTS inputs, never splitting a
    sequence: yields lists of (position in batch, label, sequences)."""
    page, size = [], 0
    for k, (label, sequences) in enumerate(batch):
        part = []
        for seq in sequences:
            if size + len(seq) > PAGE_INPUTS and size:
                if part:
                    page.append((k, label, part))
                yield page
                page, part, size = [], [], 0
            part.append(seq)
            size += len(seq)
        page.append((k, label, part))
    if page:
        yield page


def chromium_run(batch: list) -> list:
    """[(label, [sequence of inputs, ...]), ...] -> per entry, per sequence, the answers."""
    exe = tool("chromium", "chromium")
    out = [[] for _ in batch]
    with tempfile.TemporaryDirectory(prefix="encspec-chromium-") as tmp:
        for n, page in enumerate(_pages(batch)):
            work = Path(tmp) / f"page{n}"
            work.mkdir()
            jobs = [_job(label, seqs) for _k, label, seqs in page]
            answer = _chromium_page(exe, jobs, work)
            for (k, _label, seqs), rows in zip(page, answer):
                out[k].extend(_split(rows, [len(s) for s in seqs]))
    return out


def node_run(batch: list) -> list:
    """As chromium_run, with Node's TextDecoder (one process for the whole batch)."""
    exe = tool("node", "nodejs")
    jobs = [_job(label, seqs) for label, seqs in batch]
    with tempfile.TemporaryDirectory(prefix="encspec-node-") as tmp:
        script = Path(tmp) / "decode.js"
        script.write_text(NODE_SCRIPT % {"js": JS_DECODE}, "utf-8")
        data = Path(tmp) / "inputs.json"
        data.write_text(json.dumps(jobs))
        proc = subprocess.run([exe, str(script), str(data)], capture_output=True, timeout=TIMEOUT)
    if proc.returncode != 0:
        raise AssertionError(f"node exited {proc.returncode}:\n"
                             + proc.stderr.decode("utf-8", "replace")[-3000:])
    answer = json.loads(proc.stdout)
    _check(answer, jobs, "node")
    return [_split(rows, [len(s) for s in seqs]) for rows, (_l, seqs) in zip(answer, batch)]


def _many(run, jobs: dict, fresh: bool) -> dict:
    batch = [(label, [[x] for x in inputs] if fresh else [list(inputs)])
             for label, inputs in jobs.items()]
    return {label: [a for seq in seqs for a in seq] for (label, _), seqs in zip(batch, run(batch))}


# ------------------------------------------------------------------ API
def chromium_decode_many(jobs: dict, fresh: bool = True) -> dict:
    """{label: [(code_points, fatal_throws)] for each input} from headless Chromium."""
    return _many(chromium_run, jobs, fresh)


def chromium_decode(label: str, inputs: list, fresh: bool = True) -> list:
    """[(code_points, fatal_throws)] for each input, from Chromium's TextDecoder(label)."""
    return chromium_decode_many({label: inputs}, fresh)[label]


def chromium_decode_sequences(label: str, sequences: list) -> list:
    """For each sequence of inputs, one pair of TextDecoders decodes them in turn: the answers."""
    return chromium_run([(label, [list(s) for s in sequences])])[0]


def node_decode_many(jobs: dict, fresh: bool = True) -> dict:
    """{label: [(code_points, fatal_throws)] for each input} from Node's TextDecoder."""
    return _many(node_run, jobs, fresh)


def node_decode(label: str, inputs: list, fresh: bool = True) -> list:
    """[(code_points, fatal_throws)] for each input, from Node's TextDecoder(label)."""
    return node_decode_many({label: inputs}, fresh)[label]


def node_decode_sequences(label: str, sequences: list) -> list:
    """As chromium_decode_sequences, with Node."""
    return node_run([(label, [list(s) for s in sequences])])[0]
