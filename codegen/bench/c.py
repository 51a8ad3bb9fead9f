"""``encspec bench --export c``: the exported C decoder and encoder, timed inside C programs.

``CDecoder(spec)`` writes ``encspec export SPEC --lang c`` (include/encspec/NAME.h, NAME.c) and
tiny timing mains into a temporary folder and builds them with ``$CC`` (else
``cc``) ``-O2``; ``throughput(payload, repeat)`` runs ``NAME_decode`` over the
payload *repeat* times inside that program (errors become U+FFFD, as
``errors="replace"``) and returns the best in MB/s; ``encode(text, repeat)`` runs
``NAME_encode32`` (strict) over the text's code points, or ``NAME_encode8`` over its UTF-8.  The payload goes through a
file; the time is the program's CPU time around the call only, so process start
and reading do not count.
"""
from __future__ import annotations

import atexit
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# What both timing mains begin with: the header and a CPU clock.
PRELUDE = r"""#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <encspec/{mod}.h>

static double now(void)
{{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}}
"""

MAIN = r"""/* Times {mod}_decode over the file argv[1], best of argv[2] runs in CPU time: prints "seconds code_points errors". */
""" + PRELUDE + r"""
int main(int argc, char **argv)
{{
    FILE *f;
    long size;
    unsigned char *data;
    {mod}_cp *out;
    size_t n = 0, errors = 0;
    double best = 1e30;
    int k, repeat;

    if (argc != 3 || (f = fopen(argv[1], "rb")) == NULL)
        return 2;
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    fseek(f, 0, SEEK_SET);
    data = malloc((size_t)size + 1);
    out = malloc(((size_t)size + 1) * sizeof *out);
    if (data == NULL || out == NULL || fread(data, 1, (size_t)size, f) != (size_t)size)
        return 2;
    fclose(f);
    repeat = atoi(argv[2]);
    for (k = 0; k < repeat; k++) {{
        double t = now();
        n = {mod}_decode(data, (size_t)size, out, 0xFFFD, &errors);
        t = now() - t;
        if (t < best)
            best = t;
    }}
    printf("%.9f %lu %lu\n", best, (unsigned long)n, (unsigned long)errors);
    free(data);
    free(out);
    return 0;
}}
"""

ENCODE_MAIN = r"""/* Times {mod}_encode32 over the code points in file argv[1] (native-endian 32-bit), or with
   argv[4] "8" {mod}_encode8 over the UTF-8 text in it, best of argv[2] runs in CPU time;
   writes the bytes to argv[3]; prints "seconds bytes status". */
""" + PRELUDE + r"""
int main(int argc, char **argv)
{{
    FILE *f;
    long size;
    uint32_t *cps;
    unsigned char *out;
    size_t n, room;
    {mod}_encoded res;
    double best = 1e30;
    int k, repeat, status = 0, utf8;

    if (argc != 5 || (f = fopen(argv[1], "rb")) == NULL)
        return 2;
    utf8 = argv[4][0] == '8';
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    fseek(f, 0, SEEK_SET);
    n = utf8 ? (size_t)size : (size_t)size / 4;  /* UTF-8: at most a code point a byte */
    room = n * {MOD}_ENCODE_MAX_BYTES + {MOD}_SIGNATURE_LEN;
    cps = malloc((size_t)size + 4);
    out = malloc(room + 1);
    if (cps == NULL || out == NULL || fread(cps, 1, (size_t)size, f) != (size_t)size)
        return 2;
    fclose(f);
    repeat = atoi(argv[2]);
    for (k = 0; k < repeat; k++) {{
        double t = now();
        status = utf8 ? {mod}_encode8((const unsigned char *)cps, (size_t)size, out, room, 0, &res)
                      : {mod}_encode32(cps, n, out, room, 0, &res);
        t = now() - t;
        if (t < best)
            best = t;
    }}
    if ((f = fopen(argv[3], "wb")) == NULL || fwrite(out, 1, res.length, f) != res.length || fclose(f) != 0)
        return 2;
    printf("%.9f %lu %d\n", best, (unsigned long)res.length, status);
    free(cps);
    free(out);
    return 0;
}}
"""


class CDecoder:
    """The exported C decoder of *spec*, built once into a temporary folder."""

    def __init__(self, spec: str):
        from ..emit import export_common
        from ..pipeline import load, render_files
        _, automaton = load(spec)
        self.mod = export_common.module_name(automaton)
        self.dir = Path(tempfile.mkdtemp(prefix="encspec-bench-c-"))
        atexit.register(shutil.rmtree, self.dir, True)
        for name, text in render_files(automaton, "c").items():  # refuses what C cannot hold
            if name.endswith((".c", ".h")) and name != "tokens.c":
                (self.dir / name).parent.mkdir(parents=True, exist_ok=True)
                (self.dir / name).write_text(text, "utf-8")
        (self.dir / "bench.c").write_text(MAIN.format(mod=self.mod), "utf-8")
        (self.dir / "bench_encode.c").write_text(ENCODE_MAIN.format(mod=self.mod, MOD=self.mod.upper()), "utf-8")
        cc = shlex.split(os.environ.get("CC") or "cc")
        for main, exe in (("bench.c", "bench"), ("bench_encode.c", "bench-encode")):
            cmd = cc + ["-O2", "-std=c99", "-I", "include", f"{self.mod}.c", main, "-o", exe]
            proc = subprocess.run(cmd, cwd=self.dir, capture_output=True, text=True)
            if proc.returncode != 0:
                raise RuntimeError(f"cannot build the exported C codec of {spec}: {shlex.join(cmd)}\n{proc.stderr}")
        self.exe = self.dir / "bench"
        self.encode_exe = self.dir / "bench-encode"

    def run(self, payload: bytes, repeat: int) -> tuple[float, int, int]:
        """(best seconds, code points written, errors) of NAME_decode over *payload*."""
        path = self.dir / "payload.bin"
        path.write_bytes(payload)
        try:
            out = subprocess.run([str(self.exe), str(path), str(max(1, repeat))], capture_output=True, text=True,
                                 check=True).stdout.split()
        finally:
            path.unlink(missing_ok=True)
        return float(out[0]), int(out[1]), int(out[2])

    def encode(self, text: str, repeat: int, utf8: bool = False) -> tuple[float, bytes, int]:
        """(best seconds, bytes written, status) of NAME_encode32 (strict) over *text*'s code
        points, or of NAME_encode8 over its UTF-8 (surrogates as their three bytes)."""
        path, written = self.dir / "text.in", self.dir / "encoded.bin"
        path.write_bytes(text.encode("utf-8" if utf8 else "utf-32-le" if sys.byteorder == "little" else "utf-32-be",
                                     "surrogatepass"))
        try:
            out = subprocess.run([str(self.encode_exe), str(path), str(max(1, repeat)), str(written),
                                  "8" if utf8 else "32"],
                                 capture_output=True, text=True, check=True).stdout.split()
            data = written.read_bytes()
        finally:
            path.unlink(missing_ok=True)
            written.unlink(missing_ok=True)
        return float(out[0]), data, int(out[2])

    def throughput(self, payload: bytes, repeat: int) -> float:
        """MB/s of the best of *repeat* decodes of *payload*."""
        seconds, _, _ = self.run(payload, repeat)
        return len(payload) / 1e6 / max(seconds, 1e-9)


def compiler() -> str | None:
    """The C compiler ``$CC`` (else ``cc``) names, if it is on this machine."""
    cc = shlex.split(os.environ.get("CC") or "cc")
    return shutil.which(cc[0]) if cc else None
