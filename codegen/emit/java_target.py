"""The `java` export target: a package (default ``org.encspec.<name>``, ``--java-package``)
in the Maven/Gradle source layout: the codec class (no dependencies; BigInteger where
values pass 63 bits), a ``java.nio.charset.Charset`` with its decoder and a
``CharsetProvider`` registered under META-INF/services (so ``Charset.forName`` finds
it on the class path, by its name or the spec's aliases), a tokens demo, run-tokens, a
pom.xml (Maven; `mvn test` runs the conformance vectors on JUnit 5), build-jar (javac + jar
only, for machines without Maven) and a README."""
from __future__ import annotations

import re

from ..automaton import Automaton
from ..automaton.actions import Value
from ..automaton.forms import TableForm
from ..spec.expressions import MAX_LONG
from ..version import __version__
from . import export_common as common
from . import java_string, js_target, package_tests, render
from .engine_data import decoder_data
from .java_literals import JAVA_CHUNK, java_chunks, java_ints
from .target import Target, refusal, register

REASON_LIMIT = "counted form beyond this decoder's limits"

# JLS 3.9: keywords, reserved literals and `_` cannot name a package.
KEYWORDS = frozenset("""
    abstract assert boolean break byte case catch char class const continue default do double else enum
    extends final finally float for goto if implements import instanceof int interface long native new
    package private protected public return short static strictfp super switch synchronized this throw
    throws transient try void volatile while true false null _
""".split())

# Charset names the JDK defines whose spelling a spec may share: Charset.forName finds the JDK's first.
JDK_CHARSETS = frozenset({"utf-8", "utf8", "cesu-8", "utf-16", "utf-32", "us-ascii", "iso-8859-1"})


def package_error(name: str) -> str | None:
    """Why *name* is not a Java package name (dot-separated identifiers, no keywords), or None."""
    if not name:
        return "it is empty"
    for part in name.split("."):
        if not part:
            return "it has an empty part (two dots, or a dot at an end)"
        if not (part[0].isalpha() or part[0] in "_$") or not all(c.isalnum() or c in "_$" for c in part):
            return f"'{part}' is not a Java identifier"
        if not part.isascii():
            return f"'{part}' is not ASCII"
        if part in KEYWORDS:
            return f"'{part}' is a Java keyword"
    return None


def default_package(a: Automaton) -> str:
    """org.encspec.<name>: the class name in lower case (utf-8 → org.encspec.utf8)."""
    part = common.class_name(a).lower()
    part = re.sub(r"[^a-z0-9_]", "", part) or "encoding"
    if not part[0].isalpha() or part in KEYWORDS:
        part = "enc" + part
    return f"org.encspec.{part}"


def charset_name(a: Automaton) -> str:
    """The spec's name as a legal charset name (letters, digits, - + : _ . ; a letter or digit first)."""
    name = re.sub(r"[^A-Za-z0-9+:_.-]", "-", a.name)
    return name if name[:1].isalnum() else "x" + name


def charset_aliases(a: Automaton) -> list[str]:
    """The Charset's aliases: x-encspec-NAME (no JDK charset has it), then the spec's
    aliases that are legal charset names (Charset.forName would throw on the others),
    each once whatever its case, none the charset's own name."""
    name = charset_name(a)
    seen = {name.lower()}
    out = []
    for alias in ["x-encspec-" + name, *a.aliases]:
        if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9+:_.-]*", alias) and alias.lower() not in seen:
            seen.add(alias.lower())
            out.append(alias)
    return out


def maven_group(pkg: str) -> str:
    """The pom's groupId: the Java package without its last part (org.encspec.utf8 →
    org.encspec), as Maven projects name their group by the packages' common root."""
    return pkg.rsplit(".", 1)[0] if "." in pkg else pkg


def max_chars_per_byte(a: Automaton) -> str:
    """2.0 when some one-byte token is a supplementary code point, else 2 / its shortest length, at least 1
    (a table form: the most UTF-16 chars one entry of its table takes, over its length)."""
    worst = 1.0
    for row in a.rows:
        if row.first <= 0x10FFFF and row.last >= 0x10000:
            worst = max(worst, 2.0 / max(row.length, 1))
    if any(isinstance(act, Value) and isinstance(act.value, int) and 0x10000 <= act.value <= 0x10FFFF
           for act in a.actions):
        worst = 2.0
    for f in a.forms.values():
        if isinstance(f, TableForm):
            t = a.tables[f.table]
            most = 2 if common.table_top(t) >= 0x10000 else 1
            for _, cps in common.table_overrides(t):
                most = max(most, sum(2 if c >= 0x10000 else 1 for c in cps))
            worst = max(worst, most / max(f.length, 1))
    return repr(float(worst))


# The Java release the sources compile for (pom.xml's maven.compiler.release): checked by
# compiling the exports with javac --release 11 (tests/test_export_readme.py): an LTS release;
# the sources need 9 (Arrays.equals on ranges, InputStream.readAllBytes).
JAVA_RELEASE = 11

def table_context(ctx: dict, a: Automaton) -> None:
    """Every table in the one shape the decoder engine reads (Codec.java.j2's Table): its
    string constants (java_values, java_starts, java_firsts, java_lasts: chunks of
    literals, one empty where the table has no such part), java_values_fn (ints16 or
    ints32: how its values are packed), java_base, java_several and java_notes (its
    layout, for a comment)."""
    for t in ctx["tables"]:
        forms = [f"(form{'s' if len(t['forms']) > 1 else ''} {', '.join(t['forms'])})"] if t["forms"] else []
        empty = java_chunks([])
        if t["ranges"]:
            for part in ("starts", "firsts", "lasts"):
                t["java_" + part] = java_chunks(java_ints(t[part]))
            t.update(java_values=empty, java_values_fn="ints32", java_base=0, java_several=0)
            layout = f"ranges: {t['runs']} runs, pointer p of run k is FIRSTS[k] + p - STARTS[k]"
        else:
            t["java_values"] = java_chunks(t["values"] if t["bits"] == 16 else java_ints(t["values"]))
            t["java_values_fn"] = f"ints{t['bits']}"
            t.update(java_starts=empty, java_firsts=empty, java_lasts=empty, java_base=t["base"],
                     java_several=t["several"])
            layout = (f"index: pointers {t['base']} .. {t['base'] + t['count'] - 1}, {t['entries']} entries;"
                      f" 0x{t['none']:X}: no entry; 0x{t['several']:X}: see the overrides")
        t["java_notes"] = [*forms, layout]
    ctx["java_chunk"] = JAVA_CHUNK
    # the transition tables, a char a cell (NEXT's plus one: -1 is 0), row by row
    ctx["java_next"] = java_chunks([t + 1 for s in ctx["states"] for t in s["next"]])
    ctx["java_op"] = java_chunks([k for s in ctx["states"] for k in s["op"]])
    ctx["restore_text"] = common.restore_text(a)


def engine_context(ctx: dict, a: Automaton) -> None:
    """The spec's constructs as data for the one decoder engine (Codec.java.j2):
    engine_data.decoder_data's, and the flags, which the JIT folds as static final
    constants ("java_flags": name -> its Java text), so that the engine's template
    text has no per-construct switch."""
    decoder_data(a, ctx)
    ctx["java_flags"] = {"PERMUTED": _java_bool(ctx["permuted"]), "WEIGHTED": _java_bool(ctx["weighted"]),
                         "WIDE_DFA": _java_bool(ctx["wide_dfa"]), "SPAN": str(ctx["span_index"])}
    for act in ctx["actions"]:
        act["big_java"] = f'new BigInteger("{act["big"]}")' if act["big"] else "null"
        # an error's reason, a reserved run's, a shift's where it is an error (right after a shift)
        reason = act["reason"] if act["kind"] in ("error", "shift") else ""
        act["java_reason"] = "REASON_RESERVED" if act["kind"] == "reserved" else java_string(reason) if reason else "null"


def _java_bool(flag: object) -> str:
    return "true" if flag else "false"


def counted_plans(a: Automaton) -> tuple[list[dict], set]:
    """The counted forms as plans, their expressions in checked long arithmetic."""
    return js_target.counted_plans(a, "java")


COUNTED_LIMITS = [
    "* Counted forms follow the counted-form contract shared with the C and Rust",
    "  exports, in time linear in the bytes read: the value is never built",
    "  until its last digit is read.  Its digits have a power-of-two radix and",
    "  the range bounds are powers of two, so \"a valid value is still",
    "  reachable\" (the core's _scan_counted's test) is an exact comparison of",
    "  bit lengths and exponents.  Counts, the field's value and exponents are",
    "  exact longs kept within +-2**62 (checked before they can wrap; floor",
    "  division by zero and negative powers count as beyond); an input that",
    "  needs more (the reference decoder would have to build numbers of more",
    "  than 2**62 bits) is an error token covering the bytes read so far, with",
    f"  the reason \"{REASON_LIMIT}\" (REASON_LIMIT).",
    "* A header claiming more bytes than the data holds is an error token",
    "  (\"unexpected end of data\") where the data ends, found in time",
    "  proportional to the bytes present.",
    "* A char's value, of any width, is built in linear time from its packed",
    "  digits (new BigInteger(1, bytes)) when it passes a long.",
]


def check_limits(a: Automaton) -> None:
    """Java holds offsets and fixed values in 0 .. 2**64 - 1 (past a long, as BigIntegers), a
    surrogate pair's offset in a long (a counted form's exponents too)."""
    common.check_tables(a, "java")
    common.check_pairs(a, "java")
    common.check_char_offsets(a, "java")
    if a.n_states + len(a.extensions) >= 0xFFFF:  # NEXT holds a state plus one in a char
        raise common.SpecError(f"the java target needs fewer than 65,535 states and counted forms "
                               f"({a.n_states + len(a.extensions):,})", None, a.spec_file)
    for act in common.common_context(a)["actions"]:
        if act["kind"] == "pair" and act["offset"] > MAX_LONG:
            raise common.SpecError(f"the java target needs surrogate-pair offsets below 2**63 (form {act['comment']})",
                                   None, a.spec_file)


def java_long(v: int) -> str:
    """v modulo 2**64 as a Java long literal (hex past Long.MAX_VALUE)."""
    v %= 1 << 64
    return str(v) if v <= MAX_LONG else f"0x{v:X}"


def files(a: Automaton, java_package: str | None = None, spec_arg: str | None = None,
          vectors: str | None = None, encode_vectors: str | None = None) -> dict[str, str]:
    ctx = common.common_context(a)
    cls = ctx["cls"]
    pkg = java_package or default_package(a)
    why = package_error(pkg)
    if why is not None:
        raise ValueError(f"--java-package {pkg}: not a Java package name: {why}")
    ctx["java_package"] = pkg
    ctx["package_dir"] = pkg.replace(".", "/")
    ctx["charset_name"] = charset_name(a)
    ctx["charset_aliases"] = charset_aliases(a)
    ctx["charset_alias"] = ctx["charset_aliases"][0]  # x-encspec-NAME
    ctx["charset_shadowed"] = ctx["charset_name"].lower() in JDK_CHARSETS
    ctx["artifact"] = "encspec-" + ctx["mod"].replace("_", "-")
    ctx["maven_version"] = js_target.semver()
    ctx["max_chars_per_byte"] = max_chars_per_byte(a)
    ctx["group"] = maven_group(pkg)
    ctx["java_release"] = JAVA_RELEASE
    ctx["regenerate"] = common.regenerate_command(a, "java", spec_arg,
                                                  ("--java-package", pkg) if java_package else ())
    ctx["stamp"] = [
        f"{ctx['title']}: generated by encspec {__version__} (target: java, package {pkg}).",
        "",
        "Generated, do not edit: regenerate with",
        f"    {ctx['regenerate']}",
        f"Spec file: {a.spec_file}",
        f"Spec SHA-256: {a.spec_sha256}",
    ]
    check_limits(a)
    common.check_several(a, "java")
    table_context(ctx, a)
    bound = common.value_bound(a)
    ctx["wide_dfa"] = bound is None or bound > MAX_LONG  # long may overflow: replay in BigInteger
    # weights modulo 2**64 (step's long arithmetic); past a long, the scan knows the value is wide
    ctx["ops"] = [{**op, "weight_java": java_long(op["weight"]) + "L", "weight_wide": op["weight"] > MAX_LONG}
                  for op in ctx["ops"]]
    ctx["weight_wide"] = any(op["weight_wide"] for op in ctx["ops"])
    # offsets and fixed values past a long are BigIntegers (ACTION_BIG)
    actions = []
    for act in ctx["actions"]:
        v = act["value"] if act["kind"] == "value" else act["offset"]
        big = act["kind"] in ("char", "value") and not 0 <= v <= MAX_LONG
        actions.append({**act, "offset_java": 0 if big else v, "big": str(v) if big else ""})
    ctx["actions"] = actions
    ctx["action_big"] = any(act["big"] for act in actions)
    plans, used = counted_plans(a)
    ctx["plans"] = plans
    ctx["x_ops"] = sorted(used)
    ctx["reason_limit"] = REASON_LIMIT
    engine_context(ctx, a)
    limits = ["* Code points are longs up to Long.MAX_VALUE (2**63 - 1); beyond, a",
              "  token's value is -1 and its BigInteger `big` holds the code point, so",
              "  nothing differs from the reference."]
    if ctx["wide_dfa"]:
        limits += ["* The automaton accumulates in a long; a value that passes 2**63 - 1 is",
                   "  recomputed exactly with BigInteger from its bytes."]
    else:
        limits += ["* Every code point of this encoding fits in a long."]
    if plans:
        limits += COUNTED_LIMITS
    shadow = (f"(the JDK's own {ctx['charset_name']} comes first: use {ctx['charset_alias']})"
              if ctx["charset_shadowed"] else f"(or {ctx['charset_alias']})")
    ctx["header"] = common.header_lines(a, "java", limits, [
        f"Package {pkg}, sources in src/main/java/{ctx['package_dir']}/ (the Maven and",
        f"Gradle layout); `mvn package` builds target/{ctx['artifact']}-{ctx['maven_version']}.jar",
        "(pom.xml); without Maven, ./build-jar compiles them with javac and packs them",
        f"with META-INF/services into build/{ctx['artifact']}.jar.",
        f"{cls}.tokens(bytes) returns the tokens of a whole document;",
        f"{cls}.scan(bytes, pos) the one at pos; each has kind (CHAR, ERROR,",
        "RESERVED, SIGNATURE, SHIFT), start, end, value (the code point of a CHAR),",
        "big (the code point when it passes a long) and reason (why, for errors",
        f"and reserved runs).  {cls}.decode(bytes, out, replacement) writes every",
        "code point (errors and reserved runs as the replacement; the signature",
        "is skipped) into out (room for bytes.length entries) and returns how",
        "many it wrote.",
        f"{cls}.scan(bytes, pos, countedLimit), {cls}.tokens(bytes, countedLimit) and",
        f"{cls}.decode(bytes, out, replacement, countedLimit) take the most bytes one",
        f"token of a counted form may have (countedLimit >= 0; {cls}.NO_LIMIT,",
        "Long.MAX_VALUE, is the default of the shorter overloads).  A counted form",
        "whose header asks for more is an ERROR token over the bytes read before its",
        "value digits, with the reason REASON_LIMIT, decided before any value digit",
        "is read; a negative countedLimit throws IllegalArgumentException.  It has no",
        "effect on encodings without counted forms"
        + (" (this one has some)." if a.extensions else " (this one has none)."),
        "The Charset decodes without a limit.",
        *([f"{cls}.UNIT is the code unit's size in bytes ({a.unit}): errors cover whole units;",
           "where the data ends inside a sequence the error runs to its end (REASON_END),",
           "and less than a unit left is an error of its own (REASON_TRUNCATED)."] if a.unit > 1 else []),
        *([f"{cls}.SIGNATURES are the signatures (byte order marks): the first the data",
           "begins with is a SIGNATURE token"
           + (" and chooses the start state of the rest" if len(a.starts) > 1 else "") + ";",
           f"{cls}.signature(bytes) returns it (or null), and {cls}.scanFrom(bytes, pos,",
           "start) reads a token from its start state, as tokens does."] if a.signatures else []),
        f"With the jar on the class path, Charset.forName(\"{ctx['charset_name']}\")",
        f"{shadow} is {cls}Charset: new String(bytes, charset) gives one U+FFFD per",
        "maximal subpart, as the tokens do, and text.getBytes(charset) encodes as",
        f"{cls}Encoder.encode does ({cls}Encoder.Stream, the Charset's encoder).",
        f"{cls}Encoder.encode(codePoints, replace, signature) encodes code points:",
        "strict (an UnencodableException with the first error's position in code",
        "points and its reason) or replacing each unencodable one with \"?\".",
        "./run-encode < CASES encodes one case a line (strict|replace[ sig] HEX ...).",
        *(["Modes: a SHIFT token (no character) sets the mode of the tokens after it",
           f"({cls}.MODE_NAMES); tokens carries it, and the Charset's decoder and encoder",
           "carry it from call to call (the encoder's flush() writes the shift home)."]
          if a.modes else []),
        *([f"The spec's aliases are its aliases too ({', '.join(ctx['charset_aliases'][1:])}):",
           "Charset.forName finds it by them where the JDK has no charset of that name."]
          if len(ctx["charset_aliases"]) > 1 else []),
        "./run-tokens < FILE prints the tokens as `encspec tokens` does;",
        "./run-tokens --batch reads one input per line of hex (an empty line is",
        "the empty input) and prints each input's tokens followed by a line `end`.",
    ], ctx["regenerate"])
    src = f"src/main/java/{ctx['package_dir']}"
    ctx.update(common.readme_context(a, "Java", f"{ctx['group']}:{ctx['artifact']}", spec_arg))
    ctx["example"] = render("java/Decode.java.j2", **ctx).rstrip("\n")
    ctx["vectors_source"], cases = package_tests.vectors(a, computed=vectors)
    ctx["vectors"] = [{**v, "text": package_tests.token_text(v["tokens"])} for v in cases]
    from . import java_encoder  # it spells its tables with java_chunks, below
    ctx["enc"] = java_encoder.context(a)
    ctx["encode_source"], encode = package_tests.encode_cases(a, encode_vectors)
    ctx["encode_vectors"] = java_encoder.vectors_text([java_encoder.vector_row(v) for v in encode])
    ctx["encode_example"] = render("java/EncodeExample.java.j2", **ctx).rstrip("\n")
    return {
        f"{src}/{cls}.java": render("java/Codec.java.j2", **ctx),
        f"{src}/{cls}Charset.java": render("java/Charset.java.j2", **ctx),
        f"{src}/{cls}CharsetProvider.java": render("java/CharsetProvider.java.j2", **ctx),
        f"{src}/{cls}Tokens.java": render("java/Tokens.java.j2", **ctx),
        f"{src}/{cls}Encoder.java": render("java/Encoder.java.j2", **ctx),
        f"{src}/{cls}Encode.java": render("java/Encode.java.j2", **ctx),
        "run-encode": render("java/run-encode.j2", **ctx),
        "src/main/resources/META-INF/services/java.nio.charset.spi.CharsetProvider": render("java/services.j2", **ctx),
        "run-tokens": render("java/run-tokens.j2", **ctx),
        "build-jar": render("java/build-jar.j2", **ctx),
        "pom.xml": render("java/pom.xml.j2", **ctx),
        f"src/test/java/{ctx['package_dir']}/{cls}VectorsTest.java": render("java/VectorsTest.java.j2", **ctx),
        "README.md": render("java/README.md.j2", **ctx),
    }


register(Target(
    name="java",
    describe="a Java package (org.encspec.NAME): the codec class, a java.nio Charset (the spec's aliases too) "
             "and its CharsetProvider, a tokens demo, run-tokens, a pom.xml with a JUnit test of the "
             "conformance vectors, build-jar and a README",
    files=files,
    supports=refusal(check_limits),
    permutes=True,  # every byte read goes through FROM_REAL (Codec.java.j2's rd)
    undecodable=True,  # the DFA's one error per input; NameEncoder skips verification (UNDECODABLE)
    modes=True,  # MODE_STARTS, BASE and ACTION_THEN carry the mode; the encoder's (description.mode_choice)
    int_bits=None,
    executables=("run-tokens", "run-encode", "build-jar"),
    options=("java_package", "spec_arg", "vectors", "encode_vectors"),
))
