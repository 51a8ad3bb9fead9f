"""``encspec bench``'s outside references: the machine, CPU time, ``iconv`` and Node.

Every figure is CPU time (user + system), best of N: in this process
``time.process_time``; ``iconv`` as a child process, from
``resource.getrusage(RUSAGE_CHILDREN)`` around it, less the same command's time on
an empty file (its start-up); Node's ``buffer.isUtf8`` and ``TextDecoder`` inside one
Node process per corpus, by ``process.cpuUsage()`` around repeated calls.  A short
call is repeated until one timing takes at least MIN_TIME, so that the clock's
resolution does not decide small corpora.
"""
from __future__ import annotations

import json
import os
import platform
import resource
import shutil
import subprocess
import sysconfig
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path

MIN_TIME = 0.005  # seconds: a timing shorter than this repeats the call (per-call time reported)
BUDGET = 3.0      # seconds: no further repeat starts after this (best of fewer; at least one)
EXTRA_DIRS = ("/usr/local/bin",)


def find_tool(name: str) -> str | None:
    """The path of executable *name* on PATH or in /usr/local/bin (as tests/tools.py looks), or None."""
    found = shutil.which(name)
    if found:
        return found
    for d in EXTRA_DIRS:
        p = Path(d) / name
        if p.is_file() and os.access(p, os.X_OK):
            return str(p)
    return None


def cpu_best(fn: Callable[[], object], repeat: int, budget: float = BUDGET) -> float:
    """CPU seconds of one call of *fn*: the best of *repeat* timings, each of enough calls
    to last MIN_TIME (the first call, which warms memos and caches, is not timed when fast)."""
    t = time.process_time()
    fn()
    first = time.process_time() - t
    if first > budget:
        return first  # slow: its one call is the figure
    k = 1
    while first * k < MIN_TIME and k < 1 << 16:
        k *= 2
    best = float("inf")
    begun = time.perf_counter()
    for _ in range(max(1, repeat)):
        t = time.process_time()
        for _ in range(k):
            fn()
        best = min(best, (time.process_time() - t) / k)
        if time.perf_counter() - begun > budget:
            break
    return best


# --------------------------------------------------------------- the machine
def _cpuinfo() -> dict:
    info = {}
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            key = key.strip()
            if key in ("model name", "flags", "Features") and key not in info:
                info[key] = value.strip()
    except OSError:
        pass
    return info


SIMD_FLAGS = ("sse4_1", "avx2", "avx512bw", "asimd")


@cache
def machine() -> dict:
    """What the figures were measured on: CPU model, the SIMD flags the decoders may use,
    cores, CPython and the compiler that built it, and the outside tools' versions."""
    info = _cpuinfo()
    flags = set((info.get("flags") or info.get("Features") or "").split())
    return {
        "cpu": info.get("model name") or platform.processor() or platform.machine(),
        "arch": platform.machine(),
        "simd": {f: f in flags for f in (("asimd",) if "asimd" in flags else SIMD_FLAGS[:3])},
        "cores": os.cpu_count(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "compiler": f"{sysconfig.get_config_var('CC') or '?'} ({platform.python_compiler()})",
        "os": platform.platform(),
        "iconv": tool_version("iconv"),
        "node": tool_version("node"),
    }


def tool_version(name: str) -> str | None:
    path = find_tool(name)
    if path is None:
        return None
    try:
        got = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    line = (got.stdout or got.stderr).strip().splitlines()
    return line[0] if line else None


def machine_line(m: dict) -> str:
    simd = " ".join(f"{f}{'+' if on else '-'}" for f, on in m["simd"].items())
    tools = ", ".join(f"{k} {m[k] or 'absent'}" for k in ("iconv", "node"))
    return (f"{m['cpu']} ({m['arch']}, {m['cores']} cores, {simd}); {m['python']} built with {m['compiler']}; "
            f"{m['os']}; {tools}")


# ---------------------------------------------------------------------- iconv
def iconv_knows(name: str) -> bool:
    return _iconv_knows(name.upper())


@cache
def _iconv_knows(name: str) -> bool:
    path = find_tool("iconv")
    if path is None:
        return False
    try:
        return subprocess.run([path, "-f", name, "-t", "UTF-8"], input=b"", capture_output=True,
                              timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def iconv_name(names) -> str | None:
    """The first of *names* (a spec's name, aliases, CPython codec) that iconv knows,
    as iconv spells it, or None."""
    for name in names:
        for cand in (name, name.replace("_", "-"), name.replace("-le", "le").replace("-be", "be")):
            if cand.lower().startswith("whatwg-"):
                cand = cand[len("whatwg-"):]
            if iconv_knows(cand):
                return cand.upper()
    return None


def _child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _iconv_once(cmd: list, path: Path) -> float | None:
    before = _child_cpu()
    with open(path, "rb") as f:
        proc = subprocess.run(cmd, stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
    took = _child_cpu() - before
    return took if proc.returncode == 0 else None


def iconv_seconds(source: str, target: str, path: Path, empty: Path, repeat: int) -> tuple[float | None, str]:
    """(CPU seconds of ``iconv -f source -t target`` over the file *path*, less its start-up
    on the *empty* file, or None, and why not)."""
    exe = find_tool("iconv")
    if exe is None:
        return None, "no iconv"
    cmd = [exe, "-f", source, "-t", target]
    start = min(_iconv_once(cmd, empty) or 0.0 for _ in range(3))
    best = float("inf")  # the loop runs at least once
    begun = time.perf_counter()
    for _ in range(max(1, repeat)):
        took = _iconv_once(cmd, path)
        if took is None:
            return None, f"iconv -f {source} -t {target} refuses these bytes"
        best = min(best, took)
        if time.perf_counter() - begun > BUDGET:
            break
    return max(best - start, 1e-6), ""


# ----------------------------------------------------------------------- node
NODE_SCRIPT = r"""
// Times buffer.isUtf8 and TextDecoder.decode over files, in CPU time (process.cpuUsage),
// best of job.repeat timings of k calls each (k doubled until one timing takes 5 ms).
const fs = require("fs");
const buffer = require("buffer");
const jobs = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
function best(fn, repeat) {
  fn();
  let k = 1;
  for (;;) {
    const t = cpu();
    for (let i = 0; i < k; i++) fn();
    if (cpu() - t >= 0.005 || k >= 65536) break;
    k *= 2;
  }
  let b = Infinity;
  for (let r = 0; r < repeat; r++) {
    const t = cpu();
    for (let i = 0; i < k; i++) fn();
    b = Math.min(b, (cpu() - t) / k);
  }
  return b;
}
const out = {};
for (const job of jobs) {
  const data = fs.readFileSync(job.file);
  try {
    if (job.kind === "isUtf8") {
      if (typeof buffer.isUtf8 !== "function") { out[job.id] = { na: "no buffer.isUtf8 in node " + process.version }; continue; }
      let r;
      out[job.id] = { seconds: best(() => { r = buffer.isUtf8(data); }, job.repeat) };
      out[job.id].result = r;
    } else {
      let dec = null, label = null, input = data, fallback = false;
      for (const l of job.labels) {
        try { dec = new TextDecoder(l, { fatal: job.fatal, ignoreBOM: true }); label = l; break; } catch (e) {}
      }
      if (dec === null && job.fallback) {  // its utf-8, on the UTF-8 bytes of the same text
        dec = new TextDecoder("utf-8", { fatal: job.fatal, ignoreBOM: true });
        label = "utf-8"; input = fs.readFileSync(job.fallback); fallback = true;
      }
      if (dec === null) { out[job.id] = { na: "TextDecoder has no " + job.labels[0] }; continue; }
      let r;
      out[job.id] = { seconds: best(() => { r = dec.decode(input); }, job.repeat), label: label, fallback: fallback };
      out[job.id].chars = r.length;
    }
  } catch (e) {
    out[job.id] = { na: "node: " + String(e.message || e).split("\n")[0] };
  }
}
process.stdout.write(JSON.stringify(out));
"""


def run_node(jobs: list[dict], folder: Path) -> dict:
    """Run the timing script once over *jobs* (id, kind "isUtf8" or "TextDecoder", file,
    repeat, and labels and fatal for TextDecoder): id -> {"seconds"} or {"na": why}."""
    exe = find_tool("node")
    if exe is None:
        return {j["id"]: {"na": "no node"} for j in jobs}
    if not jobs:
        return {}
    script = folder / "bench.js"
    script.write_text(NODE_SCRIPT, "utf-8")
    spec = folder / "jobs.json"
    spec.write_text(json.dumps(jobs), "utf-8")
    proc = subprocess.run([exe, str(script), str(spec)], capture_output=True, text=True, timeout=1800)
    if proc.returncode != 0:
        why = "node failed: " + (proc.stderr.strip().splitlines() or ["?"])[-1]
        return {j["id"]: {"na": why} for j in jobs}
    return json.loads(proc.stdout)

