"""The Java export reads code units, byte orders, little-endian digits and the end of
the data exactly as the reference decoder core does (issue 17).

Every spec of issue 17 (utf-16le/be, utf-16, utf-32le/be, utf-32, wtf-16,
leb128, leb128-overlong, sqlite4-varint, git-offset-varint) and the four small
specs of test_export_units_js (`end`: an action taken only where the data ends,
with 16-bit and with 8-bit units; reasons of a spec's own; little-endian digits
whose weights pass 2**64) are exported to a temporary folder, compiled together
with one harness (javac -Xlint:all -Werror) and driven by ONE JVM: lines
`SPEC HEX` in, one JSON line per input out:

* the codec: tokens (kind, span, value in hex whether a long or a BigInteger,
  reason), whether the value is a long or a BigInteger, decode's code points,
  and whether scanFrom at each token's start (from the start state the
  signature chose) gives that token;
* the Charset: new String(bytes, charset); a CharsetDecoder fed one byte at a
  time with two chars of room, then flush; REPORT (each problem's kind and
  length: malformed-input lengths are the error tokens' lengths); and an
  InputStreamReader over a stream giving 1 and 3 bytes per read, read into a
  buffer of 2 chars;
* for utf-16le/be, the JDK's own new String(bytes, "UTF-16LE"/"UTF-16BE").

Expected tokens are hand-written for the contract cases (the units contract:
CPython's spans and reasons; shared with test_export_units_js) and are the
reference's (`encspec tokens`, the Python module) for the conformance vectors
and seeded random inputs.  The Charset gives the reference's text with one
U+FFFD per error token (and per code point beyond U+10FFFF).

The JDK's UTF-16 decoders agree with the reference except in one case, which
test_the_jdks_utf16_differs_only_after_a_lead_surrogate pins down: a lead
surrogate unit followed by a complete unit that is not a trail is malformed
input of 4 bytes for the JDK (one U+FFFD for both units, the second never
decoded), while CPython and the reference make the lead unit alone the error
("illegal UTF-16 surrogate", 2 bytes) and decode the next unit afresh.

A missing javac or java skips naming it; ENCSPEC_REQUIRE_TOOLS=1 makes that a
failure.
"""
from __future__ import annotations

import json
import re
import subprocess
from functools import cache

import pytest

import encspec
import test_export_units_js as units_js
import tools
from encspec import pipeline
from encspec.emit.export_common import class_name
from encspec.emit.java_target import default_package
from encspec.pipeline import export
from test_export_units_js import (
    AT_END_SPECS,
    SPECS,
    TARGETED,
    TARGETED_AT_END,
    end_spec_docs,
    exhaustive_inputs,
    random_inputs,
    vector_inputs,
)

pytestmark = pytest.mark.slow  # compiles and runs a JVM: ENCSPEC_SLOW=1 (CI) runs it

TIMEOUT = 600
JDK_NAME = {"utf-16le": "UTF-16LE", "utf-16be": "UTF-16BE"}
READER_CHUNKS = (1, 3)
READER_END_CASES = ("FEFFD800", "FEFF0041D800")  # big-endian utf-16 that ends inside a sequence

HARNESS = r"""
import java.io.*;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.*;
import java.util.*;

/** Lines "SPEC HEX" on stdin; one JSON line per input (see test_export_units_java.py). */
public final class Units {
    /** A stream that gives at most chunk bytes per read. */
    static final class Chunked extends InputStream {
        final byte[] data;
        final int chunk;
        int pos;

        Chunked(byte[] data, int chunk) {
            this.data = data;
            this.chunk = chunk;
        }

        @Override
        public int read() {
            return pos < data.length ? data[pos++] & 0xFF : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (pos >= data.length) {
                return -1;
            }
            int k = Math.min(Math.min(len, chunk), data.length - pos);
            System.arraycopy(data, pos, b, off, k);
            pos += k;
            return k;
        }
    }

    static String units(CharSequence s) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < s.length(); k++) {
            b.append(String.format("%04x", (int) s.charAt(k)));
        }
        return b.toString();
    }

    static String str(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\');
            }
            if (c < 0x20 || c > 0x7E) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }

    /** One byte at a time in, two chars of room at a time out, then the end and flush. */
    static String chunked(Charset cs, byte[] data) {
        CharsetDecoder d = cs.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        ByteBuffer in = ByteBuffer.allocate(data.length + 1);
        in.flip();
        CharBuffer out = CharBuffer.allocate(2);
        StringBuilder got = new StringBuilder();
        for (int k = 0; k <= data.length; k++) {
            boolean end = k == data.length;
            if (!end) {
                in.compact();
                in.put(data[k]);
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
        return units(got);
    }

    /** REPORT: the chars decoded (hex units) and every problem's kind and length (M malformed, U unmappable). */
    static String report(Charset cs, byte[] data) {
        CharsetDecoder d = cs.newDecoder();
        ByteBuffer in = ByteBuffer.wrap(data);
        CharBuffer out = CharBuffer.allocate(2 * data.length + 2);
        List<String> parts = new ArrayList<>();
        for (boolean flushing = false;;) {
            CoderResult r = flushing ? d.flush(out) : d.decode(in, out, true);
            out.flip();
            if (out.hasRemaining()) {
                parts.add(units(out));
            }
            out.clear();
            if (r.isError()) {
                parts.add((r.isMalformed() ? "M" : "U") + r.length());
                if (!flushing) {
                    in.position(in.position() + r.length());
                }
                continue;
            }
            if (r.isOverflow()) {
                throw new IllegalStateException("overflow");
            }
            if (flushing) {
                break;
            }
            flushing = true;
        }
        return String.join(" ", parts);
    }

    /** An InputStreamReader over a stream giving chunk bytes per read, read into 2 chars at a time. */
    static String reader(Charset cs, byte[] data, int chunk) throws IOException {
        Reader r = new InputStreamReader(new Chunked(data, chunk), cs);
        StringBuilder got = new StringBuilder();
        char[] buf = new char[2];
        for (int k; (k = r.read(buf)) >= 0;) {
            got.append(buf, 0, k);
        }
        return units(got);
    }

    /** The Charset's answers, and the JDK charset jdk's (when not null). */
    static void charset(StringBuilder row, Charset cs, byte[] data, String jdk) throws IOException {
        row.append(", \"c\": ").append(str(units(new String(data, cs))));
        row.append(", \"k\": ").append(str(chunked(cs, data)));
        row.append(", \"r\": ").append(str(report(cs, data)));
        row.append(", \"i\": [");
        for (int chunk : new int[] {CHUNKS}) {
            row.append(chunk == 1 ? "" : ", ").append(str(reader(cs, data, chunk)));
        }
        row.append("]");
        if (jdk != null) {
            row.append(", \"j\": ").append(str(units(new String(data, Charset.forName(jdk)))));
        }
    }

    static byte[] bytes(String hex) {
        byte[] data = new byte[hex.length() / 2];
        for (int k = 0; k < data.length; k++) {
            data[k] = (byte) Integer.parseInt(hex.substring(2 * k, 2 * k + 2), 16);
        }
        return data;
    }
METHODS
    public static void main(String[] args) throws Exception {
        BufferedReader lines = new BufferedReader(new InputStreamReader(System.in, "US-ASCII"));
        StringBuilder out = new StringBuilder();
        for (String line; (line = lines.readLine()) != null;) {
            int space = line.indexOf(' ');
            String spec = line.substring(0, space);
            byte[] data = bytes(line.substring(space + 1));
            StringBuilder row = new StringBuilder("{");
            switch (spec) {
CASES
                default:
                    throw new IllegalArgumentException(spec);
            }
            out.append(row).append("}\n");
        }
        Writer w = new OutputStreamWriter(new FileOutputStream(FileDescriptor.out), "US-ASCII");
        w.write(out.toString());
        w.flush();
    }
}
""".replace("CHUNKS", ", ".join(map(str, READER_CHUNKS)))

# one method per spec: its codec and its Charset, by name (the Token class is each codec's own)
METHOD = r"""
    static void row_ID(StringBuilder row, byte[] data) throws IOException {
        List<CLS.Token> toks = CLS.tokens(data);
        CLS.Signature sig = CLS.signature(data);
        int start = sig == null ? 0 : sig.start;
        row.append("\"t\": [");
        boolean scanned = true;
        for (int k = 0; k < toks.size(); k++) {
            CLS.Token t = toks.get(k);
            String value = t.kind != CLS.Kind.CHAR ? null
                    : (t.big != null ? t.big.toString(16) : Long.toHexString(t.value)).toUpperCase(Locale.ROOT);
            String type = t.kind != CLS.Kind.CHAR ? null : t.big != null ? "big" : "long";
            row.append(k > 0 ? ", " : "").append("[").append(str(t.kind.name().toLowerCase(Locale.ROOT)))
               .append(", ").append(t.start).append(", ").append(t.end).append(", ").append(str(value))
               .append(", ").append(str(type)).append(", ").append(str(t.reason)).append("]");
            if (t.kind != CLS.Kind.SIGNATURE) {
                CLS.Token s = CLS.scanFrom(data, t.start, start);
                scanned &= s.kind == t.kind && s.start == t.start && s.end == t.end && s.value == t.value
                        && Objects.equals(s.big, t.big) && Objects.equals(s.reason, t.reason);
            }
        }
        row.append("], \"s\": ").append(scanned);
        long[] cps = new long[data.length];
        int n = CLS.decode(data, cps, -1);
        row.append(", \"d\": [");
        for (int k = 0; k < n; k++) {
            row.append(k > 0 ? ", " : "").append(str(cps[k] < 0 ? "-" : Long.toHexString(cps[k]).toUpperCase(Locale.ROOT)));
        }
        row.append("]");
        charset(row, CLS.Charset.INSTANCE, data, JDK);
    }
"""


# ------------------------------------------------------------- the reference
@cache
def _module(path: str):
    return encspec.load(path)


def module(spec: str):
    return _module(units_js.AT_END_SPEC_PATHS.get(spec, spec))


def automaton(spec: str):
    return units_js.automaton(spec)


def expected(spec: str, data: bytes) -> list[tuple]:
    """The reference's tokens (kind, start, end, value, reason); reason None for chars and signatures."""
    return [(k, s, e, v, r if k in ("error", "reserved") else None) for k, s, e, v, r in module(spec)._tokens(data)]


def expected_text(spec: str, data: bytes) -> str:
    """What the Charset gives: chars (a surrogate code point as that one char; U+FFFD beyond
    U+10FFFF), U+FFFD per error, the signature skipped: UTF-16 code units in hex."""
    return text_of(expected(spec, data))


def text_of(tokens) -> str:
    out = []
    for k, _, _, v, _ in tokens:
        if k == "signature":
            continue
        cp = v if k == "char" and v <= 0x10FFFF else 0xFFFD
        if cp >= 0x10000:
            cp -= 0x10000
            out += [0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF)]
        else:
            out.append(cp)
    return "".join(f"{u:04x}" for u in out)


def expected_report(spec: str, data: bytes) -> str:
    """REPORT: runs of chars (hex units), M + the length of each error token, U + the length of
    each code point beyond U+10FFFF (unmappable)."""
    parts, run = [], ""
    for k, s, e, v, _ in expected(spec, data):
        if k == "signature":
            continue
        if k == "char" and v <= 0x10FFFF:
            cp = v
            if cp >= 0x10000:
                cp -= 0x10000
                run += f"{0xD800 + (cp >> 10):04x}{0xDC00 + (cp & 0x3FF):04x}"
            else:
                run += f"{cp:04x}"
            continue
        if run:
            parts.append(run)
            run = ""
        parts.append(("M" if k == "error" else "U") + str(e - s))
    if run:
        parts.append(run)
    return " ".join(parts)


def expected_code_points(spec: str, data: bytes) -> list[str]:
    """decode(data, out, -1): each char's code point (hex) when it fits in a long, else "-"."""
    return ["-" if k != "char" or v >= 1 << 63 else f"{v:X}" for k, _, _, v, _ in expected(spec, data)
            if k != "signature"]


def reader_texts(spec: str, data: bytes) -> set[str]:
    """What an InputStreamReader may give: the JDK's StreamDecoder never calls flush() (the
    Charset's documented limit), and JDK 17's resets the decoder at the end of the stream
    before it decodes the bytes left in its buffer.  The bytes that only the end of the
    data decides (the reference's tokens with final=False stop before them; a document
    that is a shorter prefix of a signature is undecided as a whole) are

    * one error to the end of the data, left in the input buffer: decoded at the end as
      one malformed input (one U+FFFD), or, after JDK 17's reset, as a document of their
      own (a signature's byte order forgotten: the JDK's own UTF-16 decoder does the same);
    * or else held by the decoder, and lost there (a char that more bytes could lengthen).
    """
    n = len(data)
    final = expected(spec, data)
    if data and any(n < len(sig) and sig.startswith(data) for sig, _ in automaton(spec).signatures):
        p = 0
    else:
        decided = list(module(spec)._tokens(data, final=False))
        p = decided[-1][2] if decided else 0
    text = text_of([t for t in final if t[2] <= p])
    rest = [t for t in final if t[1] >= p]
    if rest and rest[0][0] == "error" and rest[0][2] == n and n - p <= 64:
        return {text + "fffd", text + expected_text(spec, data[p:])}
    return {text}


def merged(report: str) -> str:
    """REPORT's parts with adjacent runs of chars joined (a run may end where a call ends)."""
    out: list[str] = []
    for part in report.split():
        if out and part[0] not in "MU" and out[-1][0] not in "MU":
            out[-1] += part
        else:
            out.append(part)
    return " ".join(out)


# ------------------------------------------------------------- the export
def big_endian_documents() -> list[bytes]:
    """utf-16 documents with a big-endian signature (random_inputs), each of whole units also
    followed by 00 41 ("A"), so that nothing is left for the end of the data to decide."""
    docs = [d for d in random_inputs("utf-16") if d.startswith(b"\xfe\xff") and len(d) > 2]
    return docs + [d + b"\x00\x41" for d in docs if len(d) % 2 == 0]


def inputs(spec: str) -> list[bytes]:
    items = [bytes.fromhex(h) for s, h, _ in TARGETED + TARGETED_AT_END if s == spec]
    if spec == "utf-16":
        items += big_endian_documents() + [bytes.fromhex(h) for h in READER_END_CASES]
    if spec in SPECS:
        items += vector_inputs(spec) + random_inputs(spec)
    else:
        items += exhaustive_inputs() + end_spec_docs(spec)
    return list(dict.fromkeys(items))


ALL_SPECS = SPECS + sorted(AT_END_SPECS)


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    """spec -> {input hex: its row}: every spec's inputs, run by one JVM, once."""
    javac, java = tools.need(tools.javac), tools.need(tools.java)
    root = tmp_path_factory.mktemp("units-java")
    for name, text in AT_END_SPECS.items():
        if name not in units_js.AT_END_SPEC_PATHS:
            path = root / f"{name}.encspec"
            path.write_text(text.lstrip(), "utf-8")
            units_js.AT_END_SPEC_PATHS[name] = str(path)
    methods, cases, sources = [], [], []
    (root / "export").mkdir()
    for k, spec in enumerate(ALL_SPECS):
        a = automaton(spec)
        pkg, cls = default_package(a), class_name(a)
        out = root / "export" / spec
        export(a, "java", out)
        sources += sorted((out / "src" / "main" / "java").rglob("*.java"))
        full = f"{pkg}.{cls}"
        jdk = f'"{JDK_NAME[spec]}"' if spec in JDK_NAME else "null"
        methods.append(METHOD.replace("ID", str(k)).replace("CLS.Charset", full + "Charset")
                       .replace("CLS", full).replace("JDK", jdk))
        cases.append(f'                case "{spec}":\n                    row_{k}(row, data);\n                    break;')
    harness = HARNESS.replace("METHODS", "".join(methods)).replace("CASES", "\n".join(cases))
    (root / "Units.java").write_text(harness, "utf-8")
    proc = subprocess.run([javac, "-encoding", "UTF-8", "-Xlint:all", "-Werror", "-d", str(root / "classes"),
                           *map(str, sources), str(root / "Units.java")], capture_output=True, timeout=TIMEOUT)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-5000:]
    batch = [(spec, data) for spec in ALL_SPECS for data in inputs(spec)]
    proc = subprocess.run([java, "-cp", str(root / "classes"), "Units"],
                          input="".join(f"{spec} {data.hex()}\n" for spec, data in batch).encode("ascii"),
                          capture_output=True, timeout=TIMEOUT)
    assert proc.returncode == 0 and not proc.stderr, proc.stderr.decode(errors="replace")[-5000:]
    lines = proc.stdout.decode("ascii").splitlines()
    assert len(lines) == len(batch), f"{len(lines)} answers for {len(batch)} inputs"
    results: dict[str, dict[str, dict]] = {spec: {} for spec in ALL_SPECS}
    for (spec, data), line in zip(batch, lines):
        results[spec][data.hex().upper()] = json.loads(line)
    return results.__getitem__


def _tokens_of(row) -> list[tuple]:
    return [(k, s, e, None if v is None else int(v, 16), r) for k, s, e, v, _, r in row["t"]]


def differences(spec: str, data: bytes, row: dict) -> list[str]:
    """What differs from the reference in a row: the codec, then the Charset."""
    bad = []
    want = expected(spec, data)
    if _tokens_of(row) != want:
        bad.append(f"tokens {_tokens_of(row)} != {want}")
    if not row["s"]:
        bad.append("scanFrom at a token's start differs from tokens")
    if row["d"] != expected_code_points(spec, data):
        bad.append(f"decode {row['d']} != {expected_code_points(spec, data)}")
    text = expected_text(spec, data)
    for key, what in (("c", "new String"), ("k", "CharsetDecoder byte by byte")):
        if row[key] != text:
            bad.append(f"{what} {row[key]} != {text}")
    if merged(row["r"]) != expected_report(spec, data):
        bad.append(f"REPORT {row['r']!r} != {expected_report(spec, data)!r}")
    for chunk, got in zip(READER_CHUNKS, row["i"]):
        if got not in reader_texts(spec, data):
            bad.append(f"InputStreamReader ({chunk} bytes per read) {got} not in {reader_texts(spec, data)}")
    return bad


# ------------------------------------------------------------- tests
@pytest.mark.parametrize("spec, hexdata, want", TARGETED + TARGETED_AT_END,
                         ids=[f"{s}-{h[:24]}" for s, h, _ in TARGETED + TARGETED_AT_END])
def test_the_contract_cases(driver, spec, hexdata, want):
    """Hand-written spans and reasons; the reference says the same; the Charset follows them."""
    row = driver(spec)[hexdata]
    assert _tokens_of(row) == want
    assert expected(spec, bytes.fromhex(hexdata)) == want
    assert differences(spec, bytes.fromhex(hexdata), row) == []


def test_the_briefs_cases(driver):
    """The cases named when the Java export was extended, spelled out."""
    assert _tokens_of(driver("utf-16be")["D80041"]) == [("error", 0, 3, None, "unexpected end of data")]
    assert _tokens_of(driver("utf-16be")["D8000041"]) == [("error", 0, 2, None, "illegal UTF-16 surrogate"),
                                                          ("char", 2, 4, 0x41, None)]
    assert _tokens_of(driver("utf-16")["FEFF0041"]) == [("signature", 0, 2, None, None), ("char", 2, 4, 0x41, None)]
    assert _tokens_of(driver("utf-32")["FFFE00004100000000"]) == [
        ("signature", 0, 4, None, None), ("char", 4, 8, 0x41, None), ("error", 8, 9, None, "truncated data")]
    assert _tokens_of(driver("leb128")["E58E26"]) == [("char", 0, 3, 624485, None)]
    assert _tokens_of(driver("leb128")["8000"]) == [("error", 0, 1, None, "invalid continuation byte"),
                                                    ("char", 1, 2, 0, None)]
    assert _tokens_of(driver("leb128")["FF" * 9 + "01"]) == [("char", 0, 10, 2 ** 64 - 1, None)]
    # the Charset: one U+FFFD per error token, malformed input as long as the token
    assert driver("utf-16be")["D80041"]["r"] == "M3"
    assert merged(driver("utf-16be")["D8000041"]["r"]) == "M2 0041"
    assert driver("utf-32")["FFFE00004100000000"]["r"] == "0041 M1"
    assert driver("utf-16")["FEFF0041"]["c"] == "0041"
    assert driver("utf-16")["FEFF0041"]["i"] == ["0041", "0041"]


def test_values_past_a_long_are_bigintegers_and_smaller_ones_longs(driver):
    rows = driver("leb128")
    assert rows["E58E26"]["t"][0][3:5] == ["98765", "long"]
    assert rows["FF" * 9 + "01"]["t"][0][3:5] == ["FFFFFFFFFFFFFFFF", "big"]
    assert rows["80" * 9 + "01"]["t"][0][3:5] == ["8000000000000000", "big"]
    assert rows["FF" * 8 + "7F"]["t"][0][3:5] == ["7FFFFFFFFFFFFFFF", "long"]
    assert rows["FF" * 9 + "01"]["d"] == ["-"]
    assert driver("sqlite4-varint")["FF" * 9]["t"][0][4] == "big"
    assert driver("git-offset-varint")["8000"]["t"][0][3:5] == ["80", "long"]
    assert driver("wide-end")["FD" + "BF" * 11]["t"][0][3:5] == [f"{2 ** 66 - 1:X}", "big"]
    assert driver("utf-16")["FEFF0041"]["t"][1][4] == "long"


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_vectors_and_random_inputs_match_the_reference(driver, spec):
    """The conformance vectors and seeded random inputs (the `end` specs: every input of up to 4
    interesting bytes and seeded documents): the codec's tokens, scanFrom and decode, and the
    Charset (whole, byte by byte, REPORT, InputStreamReader)."""
    rows = driver(spec)
    items = inputs(spec)
    assert len(items) >= units_js.N_RANDOM
    bad = []
    for data in items:
        got = differences(spec, data, rows[data.hex().upper()])
        if got:
            bad.append(f"{data.hex(' ').upper() or '(empty)'}\n  " + "\n  ".join(got))
    assert not bad, f"{len(bad)} of {len(items)} inputs differ:\n" + "\n".join(bad[:8])


def test_a_big_endian_utf16_document_through_a_reader_with_a_tiny_buffer(driver):
    """utf-16 with a big-endian signature and then "A" (00 41, so that the end of the data
    decides nothing), through an InputStreamReader fed 1 and 3 bytes per read into a buffer
    of 2 chars: the signature is skipped and chooses big-endian for the rest, each error
    token is one U+FFFD, and the text is the reference's, as new String gives it."""
    rows = driver("utf-16")
    every = big_endian_documents()
    docs = [d + b"\x00\x41" for d in set(every) if d + b"\x00\x41" in every]
    assert len(docs) > 50
    with_errors = 0
    for data in docs:
        row = rows[data.hex().upper()]
        text = expected_text("utf-16", data)
        assert reader_texts("utf-16", data) == {text}  # nothing is left for flush() to decide
        assert row["i"] == [text] * len(READER_CHUNKS) and row["c"] == text, data.hex(" ")
        with_errors += "fffd" in text
    assert with_errors > 10


def test_a_reader_decodes_the_end_of_a_big_endian_document_as_the_jdks_utf16_does(driver):
    """A big-endian utf-16 document that ends inside a sequence (a lone lead unit, an odd
    byte): on the JDK whose StreamDecoder resets the decoder at the end of the stream before
    it decodes the bytes left in its buffer (JDK 17), those bytes are decoded as a document of
    their own, little-endian: the JDK's own UTF-16 decoder (FF FE: little-endian) loses the
    byte order the same way.  Later JDKs give the reference's one U+FFFD."""
    rows = driver("utf-16")
    for hexdata in READER_END_CASES:
        data = bytes.fromhex(hexdata)
        got = rows[hexdata]["i"]
        assert rows[hexdata]["c"] == expected_text("utf-16", data)  # new String: the reference's
        assert set(got) <= reader_texts("utf-16", data), got


def jdk_text(spec: str, data: bytes) -> str:
    """The JDK's UTF-16LE/BE decoder as a model: the reference, except that a lead surrogate
    followed by a complete unit that is not a trail swallows that unit (malformed, 4 bytes)."""
    order = "little" if spec.endswith("le") else "big"
    out, i, n = [], 0, len(data)
    while i + 2 <= n:
        u = int.from_bytes(data[i:i + 2], order)
        if 0xD800 <= u < 0xDC00:
            if i + 4 > n:
                break
            v = int.from_bytes(data[i + 2:i + 4], order)
            out += [u, v] if 0xDC00 <= v < 0xE000 else [0xFFFD]
            i += 4
        else:
            out.append(0xFFFD if 0xDC00 <= u < 0xE000 else u)
            i += 2
    if i < n:
        out.append(0xFFFD)  # the rest: malformed to the end of the input
    return "".join(f"{u:04x}" for u in out)


@pytest.mark.parametrize("spec", sorted(JDK_NAME))
def test_the_charset_equals_the_jdks_utf16_where_they_agree(driver, spec):
    """new String(bytes, ours) == new String(bytes, "UTF-16LE"/"UTF-16BE") on every input
    without an "illegal UTF-16 surrogate" error token (the one case where they differ)."""
    rows = driver(spec)
    compared = 0
    bad = []
    for data in vector_inputs(spec) + random_inputs(spec):
        row = rows[data.hex().upper()]
        if row["j"] != jdk_text(spec, data):
            bad.append(f"{data.hex(' ').upper()}: the JDK gives {row['j']}, its model {jdk_text(spec, data)}")
        if any(r == "illegal UTF-16 surrogate" for _, _, _, _, r in expected(spec, data)):
            continue
        compared += 1
        if row["c"] != row["j"]:
            bad.append(f"{data.hex(' ').upper()}: ours {row['c']} the JDK's {row['j']}")
    assert not bad, "\n".join(bad[:8])
    assert compared > 200


def test_the_jdks_utf16_differs_only_after_a_lead_surrogate(driver):
    """The difference, spelled out: D800 followed by a complete non-trail unit is 2 bytes of
    malformed input for the reference (CPython's "illegal UTF-16 surrogate"), then the next
    unit decodes; for the JDK it is 4 bytes, one U+FFFD for both units."""
    be = driver("utf-16be")
    assert be["D8000041"]["c"] == "fffd0041" and be["D8000041"]["j"] == "fffd"
    assert be["D800D800DC00"]["c"] == "fffdd800dc00" and be["D800D800DC00"]["j"] == "fffdfffd"
    # elsewhere they agree: a lone trail, a lead at the end, a partial unit, U+FFFE, U+FEFF
    for hexdata in ("DC000041", "D80041", "D800", "004100", "FFFE0041", "FEFF0041", "D800DC00"):
        assert be[hexdata]["c"] == be[hexdata]["j"], hexdata


def _java_codec(spec: str) -> str:
    """The Codec class of *spec*'s java export (its text)."""
    from encspec.emit.targets import targets
    a = pipeline.load(spec)[1]
    files = targets()["java"].files(a)
    return next(v for k, v in files.items() if k.endswith(f"/{class_name(a)}.java"))


def _java_engine(text: str) -> str:
    """The Codec's decoder engine: the table lookup, the steps, the scanner, tokens and
    decode, without the spec's data (the TABLES initialiser), its comments, and the
    counted forms' own scanners (generated from each form's expressions) or the cases
    that call them."""
    code = text[text.index("    /** A mapping table: an index"):]
    code = re.sub(r"private static final Table\[\] TABLES = \{.*?\n    \};", "", code, flags=re.S)
    if "// --------------------------------------------------------- counted forms" in code:
        code = code[:code.index("    // --------------------------------------------------------- counted forms")] + \
            code[code.index("    /** Counted form form's token at data[pos]"):]
    code = re.sub(r"\n +case \d+:\n +return counted\d+\(.*", "", code)
    return "\n".join(line for line in code.split("\n")
                     if not line.lstrip().startswith(("*", "/*", "//")))


def test_the_java_source_names_the_spec_reasons_and_weights_as_data():
    """Reasons come from the spec (utf-16's); the decoder engine is one text for every spec,
    which it reads as data: a weight-1, byte-unit spec differs in its flags (WEIGHTED false,
    constants HotSpot folds), its UNIT (1) and its end-of-data actions (all -1), not in its
    code; so do specs with mapping tables, counted forms and table entries of several
    code points."""
    text = _java_codec("utf-16")
    for reason in ("illegal encoding", "illegal UTF-16 surrogate", "unexpected end of data", "truncated data"):
        assert f'"{reason}"' in text
    assert '"invalid start byte"' not in text and "WEIGHTED = true;" in text
    assert "new Signature(6, (byte) 0xFE, (byte) 0xFF)" in text and "UNIT = 2;" in text
    leb = _java_codec("leb128")
    assert "0x8000000000000000L" in leb and "WIDE_DFA = true;" in leb  # 2**63: past a long
    narrow = _java_codec("utf-8")
    assert "WEIGHTED = false;" in narrow and "WIDE_DFA = false;" in narrow and "UNIT = 1;" in narrow
    at_end = narrow[narrow.index("private static final int[] AT_END"):].split("\n", 1)[0]
    assert set(re.findall(r"-?\d+", at_end.split("{", 1)[1])) == {"-1"}
    assert "acc = acc * RADIX[k] + (WEIGHTED ? d * WEIGHT[k] : d);" in narrow
    assert _java_engine(narrow) == _java_engine(text)
    for spec in ("shift_jis", "utf-inf-8", "whatwg-big5", "leb128"):  # tables, counted forms, entries of several
        assert _java_engine(_java_codec(spec)) == _java_engine(narrow), spec
