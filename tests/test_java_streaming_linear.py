"""The Java export's streaming Charset decoder is linear in chunked input (issue 14).

A token that more bytes could still change is held by the decoder until they
decide it.  It used to be scanned again from its first byte, after copying
every held byte, on each decodeLoop call, so that a long undecided token fed
in small chunks cost the square of its length: one UTF-∞-8 counted code point
of 1 MiB read through an InputStreamReader whose stream gives 64 bytes per
read took hundreds of times as long as one of 64 KiB (16 times the bytes).
The decoder now keeps the held token's scan state between calls (where the
automaton, or the counted form's free count, field and value digits, stand),
so each new byte is examined once until the token is decided.

* The ratio: one counted code point of about 64 KiB and one of about 1 MiB
  (then "A"), each read through an InputStreamReader over a stream giving 1
  or 64 bytes per read, timed in one JVM (thread CPU time, nine interleaved
  trials, the small input repeated to as many bytes as the large): the large
  may take at most 25 times the small, by the best times or by the median of
  the trials' ratios.  A large run past its deadline is stopped and fails.
* The answer: a counted code point is beyond U+10FFFF, so a Reader gives one
  U+FFFD for it (an unmappable character), then the "A"; under REPORT the
  Reader throws UnmappableCharacterException whose input length is the whole
  code point's; and the codec's tokens give the expected code point.
* Exact results: inputs fed in chunks of 1, 2, 3, 7 and 64 bytes, through a
  CharsetDecoder (two chars of room at a time, then flush) and through an
  InputStreamReader (with "A" appended, so that nothing is left undecided at
  the end, which InputStreamReader would drop; where "A" continues the last
  token, the Reader is not compared), give what new String(bytes)
  gives, which is what the reference tokens give: for UTF-∞-8, the other
  built-in specs the Java tests cover and the hand-written counted forms of
  test_export_counted_js_java, on test_export's inputs and long adversarial
  ones (long headers, long reserved runs, long code points, truncated).

javac and java are found as tools.py finds them; a missing one skips the tests
naming it (a failure under ENCSPEC_REQUIRE_TOOLS=1).
"""
from __future__ import annotations

import hashlib
import json
import statistics
import subprocess
from functools import cache

import pytest

import encspec
import tools
from encspec import pipeline
from encspec.emit.export_common import class_name
from encspec.emit.java_target import default_package
from encspec.pipeline import export

pytestmark = pytest.mark.slow  # compiles and runs a JVM: ENCSPEC_SLOW=1 (CI) runs it

TIMEOUT = 600
SMALL, LARGE = 64 << 10, 1 << 20
RATIO = 25  # the 1 MiB code point may take at most this many times the 64 KiB one
FAST_ENOUGH_MS = 3.0  # a 1 MiB run this fast passes whatever the ratio (noise, not the algorithm)
CHUNKS = [1, 2, 3, 7, 64]
SPECS = ["utf-inf-8", "utf-8", "corrected-utf-8", "wtf-8", "cesu-8", "mutf-8", "utf-8-bom"]


HARNESS = r"""
import java.io.*;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.*;
import java.nio.file.*;
import java.security.MessageDigest;
import java.util.*;

/**
 * java Stream time CHARSET CODEC CHUNK SMALL LARGE: both files through an InputStreamReader
 *     over a stream giving CHUNK bytes per read, timed; one JSON line.
 * java Stream chunks CHARSET SIZE...: per line of hex on stdin, a line of UTF-16 units:
 *     new String | per SIZE: CharsetDecoder fed SIZE bytes at a time | InputStreamReader
 *     fed SIZE bytes per read, of the bytes and "A".
 */
public final class Stream {
    /** A stream of data that gives at most chunk bytes per read, and stops after deadline (nanoTime). */
    static final class Chunked extends InputStream {
        final byte[] data;
        final int chunk;
        final long deadline;
        int pos;

        Chunked(byte[] data, int chunk, long deadline) {
            this.data = data;
            this.chunk = chunk;
            this.deadline = deadline;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (System.nanoTime() > deadline) {
                throw new Stopped();
            }
            if (pos >= data.length) {
                return -1;
            }
            int k = Math.min(Math.min(len, chunk), data.length - pos);
            System.arraycopy(data, pos, b, off, k);
            pos += k;
            return k;
        }
    }

    static final class Stopped extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }

    static Charset charset(String name) throws Exception {
        return (Charset) Class.forName(name).getField("INSTANCE").get(null);
    }

    static String read(Reader r) throws IOException {
        StringBuilder got = new StringBuilder();
        char[] buf = new char[16];
        for (int k; (k = r.read(buf)) >= 0;) {
            got.append(buf, 0, k);
        }
        return got.toString();
    }

    static String units(CharSequence s) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < s.length(); k++) {
            b.append(k > 0 ? " " : "").append(String.format("%04X", (int) s.charAt(k)));
        }
        return b.toString();
    }

    static String json(String s) {
        return s == null ? "null" : "\"" + s + "\"";
    }

    /** chunk bytes at a time in, two chars of room at a time out, then the end and flush. */
    static String chunked(Charset cs, byte[] data, int chunk) {
        CharsetDecoder d = cs.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        ByteBuffer in = ByteBuffer.allocate(data.length + 1);
        in.flip();
        CharBuffer out = CharBuffer.allocate(2);
        StringBuilder got = new StringBuilder();
        for (int k = 0, last = 0; last == 0; k += chunk) {
            boolean end = k >= data.length;
            last = end ? 1 : 0;
            if (!end) {
                in.compact();
                in.put(data, k, Math.min(chunk, data.length - k));
                in.flip();
            }
            for (;;) {
                CoderResult r = d.decode(in, out, end);
                out.flip();
                got.append(out);
                out.clear();
                if (r.isUnderflow()) {
                    break;
                }
                if (!r.isOverflow()) {
                    throw new IllegalStateException(r.toString());
                }
            }
        }
        for (;;) {
            CoderResult r = d.flush(out);
            out.flip();
            got.append(out);
            out.clear();
            if (r.isUnderflow()) {
                break;
            }
            if (!r.isOverflow()) {
                throw new IllegalStateException(r.toString());
            }
        }
        return got.toString();
    }

    static long cpu() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        return mx.isCurrentThreadCpuTimeSupported() ? mx.getCurrentThreadCpuTime() : System.nanoTime();
    }

    public static void main(String[] args) throws Exception {
        Charset cs = charset(args[1]);
        if (args[0].equals("chunks")) {
            BufferedReader lines = new BufferedReader(new InputStreamReader(System.in, "US-ASCII"));
            StringBuilder out = new StringBuilder();
            for (String line; (line = lines.readLine()) != null;) {
                byte[] data = new byte[line.length() / 2];
                for (int k = 0; k < data.length; k++) {
                    data[k] = (byte) Integer.parseInt(line.substring(2 * k, 2 * k + 2), 16);
                }
                byte[] thenA = Arrays.copyOf(data, data.length + 1);
                thenA[data.length] = 'A';
                out.append(units(new String(data, cs))).append('|').append(units(new String(thenA, cs)));
                for (int k = 2; k < args.length; k++) {
                    int chunk = Integer.parseInt(args[k]);
                    String reader = read(new InputStreamReader(new Chunked(thenA, chunk, Long.MAX_VALUE), cs));
                    out.append('|').append(units(chunked(cs, data, chunk))).append('|').append(units(reader));
                }
                out.append('\n');
            }
            System.out.print(out);
            return;
        }
        // time
        Class<?> codec = Class.forName(args[2]);
        int chunk = Integer.parseInt(args[3]);
        byte[] small = Files.readAllBytes(Paths.get(args[4]));
        byte[] large = Files.readAllBytes(Paths.get(args[5]));
        String smallText = null;
        long warm = System.nanoTime();
        for (int k = 0; k < 3; k++) {  // warm up: the JIT compiles the hot paths
            smallText = read(new InputStreamReader(new Chunked(small, chunk, Long.MAX_VALUE), cs));
        }
        // a short small run is repeated to as many bytes as the large one (a long one is stable)
        boolean quick = System.nanoTime() - warm < 300_000_000L;
        int reps = quick ? Math.max(1, Math.round((float) large.length / small.length)) : 1;
        final int trials = 9;
        List<String> smallCpu = new ArrayList<>(), largeCpu = new ArrayList<>();
        List<String> smallWall = new ArrayList<>(), largeWall = new ArrayList<>();
        String largeText = null;
        double stopped = -1;
        double best = Double.MAX_VALUE;
        for (int trial = 0; trial < trials && stopped < 0; trial++) {
            long c0 = cpu(), t0 = System.nanoTime();
            for (int r = 0; r < reps; r++) {
                smallText = read(new InputStreamReader(new Chunked(small, chunk, Long.MAX_VALUE), cs));
            }
            double sc = (cpu() - c0) / 1e6 / reps, sw = (System.nanoTime() - t0) / 1e6 / reps;
            smallCpu.add(Double.toString(sc));
            smallWall.add(Double.toString(sw));
            best = Math.min(best, sw);
            // the large run is stopped past 2 * RATIO times the best small run (10 to 60 s)
            long budget = (long) (Math.min(60_000, Math.max(10_000, 2 * RATIO * best)) * 1e6);
            c0 = cpu();
            t0 = System.nanoTime();
            try {
                largeText = read(new InputStreamReader(new Chunked(large, chunk, t0 + budget), cs));
            } catch (Stopped e) {
                stopped = (System.nanoTime() - t0) / 1e9;
                break;
            }
            largeCpu.add(Double.toString((cpu() - c0) / 1e6));
            largeWall.add(Double.toString((System.nanoTime() - t0) / 1e6));
        }
        // REPORT: the Reader throws for the code point, with its whole length
        List<String> reported = new ArrayList<>();
        for (byte[] data : stopped < 0 ? new byte[][] {small, large} : new byte[][] {small}) {
            CharsetDecoder d = cs.newDecoder();  // REPORT
            try {
                read(new InputStreamReader(new Chunked(data, chunk, Long.MAX_VALUE), d));
                reported.add(json("nothing"));
            } catch (UnmappableCharacterException e) {
                reported.add(json("U" + e.getInputLength()));
            } catch (MalformedInputException e) {
                reported.add(json("M" + e.getInputLength()));
            }
        }
        // the codec's tokens, a code point as the SHA-256 of its BigInteger.toByteArray()
        // (its hex digits would take BigInteger.toString long to write for a megabyte)
        List<String> tokens = new ArrayList<>();
        for (byte[] data : stopped < 0 ? new byte[][] {small, large} : new byte[][] {small}) {
            for (Object t : (List<?>) codec.getMethod("tokens", byte[].class).invoke(null, data)) {
                Class<?> tc = t.getClass();
                byte[] cp = ((java.math.BigInteger) tc.getMethod("codePoint").invoke(t)).toByteArray();
                StringBuilder sha = new StringBuilder();
                for (byte b : MessageDigest.getInstance("SHA-256").digest(cp)) {
                    sha.append(String.format("%02x", b & 0xFF));
                }
                tokens.add(json(tc.getField("kind").get(t) + " " + tc.getField("start").getInt(t) + " "
                        + tc.getField("end").getInt(t) + " " + sha));
            }
        }
        System.out.println("{\"small_cpu\": [" + String.join(", ", smallCpu) + "], \"large_cpu\": ["
                + String.join(", ", largeCpu) + "], \"small_wall\": [" + String.join(", ", smallWall)
                + "], \"large_wall\": [" + String.join(", ", largeWall) + "], \"stopped\": " + stopped
                + ", \"small_text\": " + json(units(smallText)) + ", \"large_text\": "
                + json(largeText == null ? null : units(largeText)) + ", \"reported\": ["
                + String.join(", ", reported) + "], \"tokens\": [" + String.join(", ", tokens) + "]}");
    }

    static final double RATIO = RATIO_VALUE;
}
""".replace("RATIO_VALUE", str(float(RATIO)))


# ------------------------------------------------------------------ inputs
def wide(size: int) -> tuple[bytes, int]:
    """One valid UTF-∞-8 counted code point of about *size* bytes, and its value: nme = 1
    (mod 3), so the value has 4 * (nme + 20) bits, its first 8 zeros (80 8A first)."""
    count = size - 8
    nme = count * 3 // 2 - 20
    nme -= (nme - 1) % 3
    count = (nme + 20) // 3 * 2
    digits = f"{nme:X}"
    header = b"\xff" + b"\xb4" * (len(digits) - 1) + bytes(0xA0 + int(c, 16) for c in digits)
    value = bytes([0x80, 0x8A]) + bytes(0x80 | (k * 7 + 13) % 64 for k in range(count - 2))
    return header + value, int("".join(f"{b & 0x3F:06b}" for b in value), 2)  # linear, as shifts are not


VARIANT_NAMES = ["cv-one", "cv-two", "cv-three"]


def variants() -> dict[str, str]:
    from test_export_counted_js_java import VARIANTS
    return {name: VARIANTS[name] for name in VARIANT_NAMES}


def long_inputs(spec: str, a) -> list[bytes]:
    """Inputs with long undecided tokens (longer than the 64 bytes the decoder leaves in the
    input buffer), cut anywhere, between other tokens."""
    out = []
    if spec == "utf-inf-8":
        huge = bytes.fromhex("FFB4B4B4B4B4AFAFAFAFAFAF")  # nme = 0xFFFFFF: the data runs out first
        for size in (70, 200, 1500):
            code, _ = wide(size)
            out += [code, b"A" + code + b"B", code[:-1], code[:-1] + b"A", code + code,
                    code[: size // 2] + b"\x80" * 3, code[:-1] + b"\xff"]
        out += [huge + b"\xbf" * 150, (huge + b"\xbf" * 100) * 3, b"\xff" + b"\xb4" * 300,
                b"\xff" + b"\xb4" * 300 + b"A", b"\xff" + b"\xb4" * 20 + b"\xaf" * 21 + b"\xbf" * 80,
                b"\xff" + b"\xb4" * 70 + b"\xa1" + b"\xa0" * 70 + b"\x80" * 90,
                b"\xff" + b"\xb4" * 10 + b"\xa1" + b"\xa0" * 10 + b"\x80\x8f" + b"\xbf" * 90,
                b"\xff" + b"\xb4\xa5\xa4" + b"\xaa" * 68 + b"\xff\xb4\xa5\xa4" + b"\xaa" * 67]
    # every lead byte followed by a long run of each byte the automaton continues with
    conts = sorted({b for s in range(1, a.n_states) for b in range(256) if 0 <= a.step(s, b) < a.n_states})
    for lead in range(0x80, 0x100):
        if a.step(0, lead) < 0:
            continue
        for c in conts[:: max(1, len(conts) // 4)]:
            out.append(bytes([lead]) + bytes([c]) * 100 + b"Z")
    for ext in a.extensions:  # a counted form's prefix, then long runs of its items' bytes
        head = bytes(ext.prefix_bytes)
        for it in ext.items:
            alphabet = [b for lo, hi in it.runs for b in range(lo, hi + 1)]
            out += [head + bytes([alphabet[0]]) * 90, head + bytes([alphabet[-1]]) * 90 + b"A"]
            head += bytes([alphabet[-1]])
    return out


def sha(cp: int) -> str:
    """The SHA-256 of Java's BigInteger.valueOf(cp).toByteArray() (cp >= 0): big-endian, a sign bit."""
    return hashlib.sha256(cp.to_bytes(cp.bit_length() // 8 + 1, "big")).hexdigest()


def expected_units(m, data: bytes) -> str:
    """The UTF-16 units the Charset gives for *data*, from the reference tokens."""
    units = []
    for kind, _, _, value in m.tokens(data):
        if kind == "signature":
            continue
        if kind == "char" and value <= 0x10FFFF:
            units += [f"{value:04X}"] if value < 0x10000 else [
                f"{0xD800 + ((value - 0x10000) >> 10):04X}", f"{0xDC00 + ((value - 0x10000) & 0x3FF):04X}"]
        else:
            units.append("FFFD")
    return " ".join(units)


# ------------------------------------------------------------------ building
def run(cmd, stdin: bytes = b"") -> str:
    proc = subprocess.run(cmd, input=stdin, capture_output=True, timeout=TIMEOUT)
    assert proc.returncode == 0, (f"{' '.join(map(str, cmd))} exited {proc.returncode}:\n"
                                  + proc.stderr.decode(errors="replace")[-3000:])
    return proc.stdout.decode("ascii")


@cache
def load(spec: str):
    return pipeline.load(spec)[1], encspec.load(spec)


@pytest.fixture(scope="module")
def jvm(tmp_path_factory):
    """Every spec exported to Java and compiled with the harness (javac -Xlint:all -Werror);
    (java command, {spec: (charset class, codec class, automaton, module)})."""
    javac, java = tools.need(tools.javac), tools.need(tools.java)
    root = tmp_path_factory.mktemp("java-stream")
    specs = {}
    for name in SPECS:
        specs[name] = name
    for name, text in variants().items():
        path = root / f"{name}.encspec"
        path.write_text(text, "utf-8")
        specs[name] = str(path)
    classes = {}
    sources = []
    for name, where in specs.items():
        a, m = load(where)
        export(a, "java", root / name)
        pkg, cls = default_package(a), class_name(a)
        classes[name] = (f"{pkg}.{cls}Charset", f"{pkg}.{cls}", a, m)
        sources += sorted((root / name / "src" / "main" / "java").rglob("*.java"))
    (root / "Stream.java").write_text(HARNESS, "utf-8")
    run([javac, "-encoding", "UTF-8", "-Xlint:all", "-Werror", "-d", str(root / "classes"),
         *map(str, sources), str(root / "Stream.java")])
    return [java, "-cp", str(root / "classes"), "Stream"], classes, root


# ------------------------------------------------------------------ the ratio
@pytest.mark.parametrize("chunk", [64, 1])
def test_a_long_code_point_read_in_chunks_takes_linear_time(jvm, chunk):
    java, classes, root = jvm
    charset, codec, _, m = classes["utf-inf-8"]
    (small, small_cp), (large, large_cp) = wide(SMALL), wide(LARGE)
    files = []
    for size, data in ((SMALL, small), (LARGE, large)):
        path = root / f"wide-{size}-{chunk}"
        path.write_bytes(data + b"A")
        files.append(str(path))
    got = json.loads(run(java + ["time", charset, codec, str(chunk)] + files))
    small_ms, large_ms = got["small_cpu"], got["large_cpu"]
    if got["stopped"] >= 0:
        pytest.fail(f"chunks of {chunk}: the 1 MiB code point did not finish in {got['stopped']:.1f} s "
                    f"(stopped); the 64 KiB one took {min(small_ms):.1f} ms of CPU: more than "
                    f"{got['stopped'] * 1e3 / min(small_ms):.0f}x for 16x the bytes", pytrace=False)
    best = min(large_ms) / max(min(small_ms), 1e-3)
    median = statistics.median(b / max(a, 1e-3) for a, b in zip(small_ms, large_ms))
    print(f"chunks of {chunk}: 64 KiB {min(small_ms):.2f} ms, 1 MiB {min(large_ms):.2f} ms of CPU: "
          f"best {best:.1f}x, median {median:.1f}x (wall {min(got['small_wall']):.2f} and "
          f"{min(got['large_wall']):.2f} ms)")
    assert min(best, median) <= RATIO or min(large_ms) <= FAST_ENOUGH_MS, (
        f"chunks of {chunk}: 64 KiB took {min(small_ms):.2f} ms of CPU, 1 MiB {min(large_ms):.2f} ms: "
        f"{best:.1f}x by the best times, {median:.1f}x by the median of the trials (bound {RATIO}x)")
    # the answers: one unmappable char (beyond U+10FFFF) of the code point's whole length, then A
    assert got["small_text"] == got["large_text"] == "FFFD 0041"
    assert got["reported"] == [f"U{len(small)}", f"U{len(large)}"]
    assert got["tokens"] == [f"CHAR 0 {len(small)} {sha(small_cp)}", f"CHAR {len(small)} {len(small) + 1} {sha(0x41)}",
                             f"CHAR 0 {len(large)} {sha(large_cp)}", f"CHAR {len(large)} {len(large) + 1} {sha(0x41)}"]


def test_the_long_code_point_is_the_reference_one():
    """The 64 KiB pattern is one valid code point to the Python module too, of the value computed here."""
    data, cp = wide(SMALL)
    assert list(encspec.load("utf-inf-8").tokens(data)) == [("char", 0, len(data), cp)]


# ------------------------------------------------------------- exact results
@pytest.mark.parametrize("name", SPECS + VARIANT_NAMES)
def test_chunked_decoding_gives_what_one_shot_decoding_gives(jvm, name):
    from test_export import conformance_inputs, random_inputs
    java, classes, _ = jvm
    charset, _, a, m = classes[name]
    items = conformance_inputs(a) + random_inputs(a, n=300) + long_inputs(name, a)
    stdin = "".join(x.hex() + "\n" for x in items).encode("ascii")
    lines = run(java + ["chunks", charset] + [str(k) for k in CHUNKS], stdin).splitlines()
    assert len(lines) == len(items)
    bad = []
    for data, line in zip(items, lines):
        whole, then_a, *chunked = line.split("|")
        want = expected_units(m, data)
        want_a = expected_units(m, data + b"A")
        got = {"new String": whole, "new String, A": then_a}
        for k, (dec, reader) in zip(CHUNKS, zip(chunked[::2], chunked[1::2])):
            got[f"decoder, {k}"] = dec
            got[f"reader, {k}, A"] = reader
        if list(m.tokens(data + b"A"))[-1] != ("char", len(data), len(data) + 1, 0x41):
            # "A" continues the last token (a digit of some counted forms): InputStreamReader,
            # which never flushes, drops a token the end of the data leaves undecided
            got = {how: text for how, text in got.items() if not how.startswith("reader")}
        wrong = {how: text for how, text in got.items() if text != (want_a if how.endswith(", A") else want)}
        if wrong:
            bad.append(f"{data.hex()}: want {want} / {want_a}, got {wrong}")
    assert not bad, f"{name}: {len(bad)} of {len(items)} differ:\n" + "\n".join(bad[:5])
