"""Issue 15, items 5 and 6, from the encyclopedia article (utf-8-encyclopedia-article.txt).

5. Detect, then fall back: "Software can check for UTF-8 correctness, and if that
   fails assume the input to be in the legacy encoding."  (`encspec decode --fallback`,
   `encspec.decode_or_fallback`.)
6. The code page chart shows what the article's "Codepage layout" table shows: the
   historical 5- and 6-byte leads in the red F8..FD cells, and the block names of the
   lead cells.  Every expected value below is copied by hand from the article.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

import encspec
from conftest import feed_stdin as stdin
from conftest import run_cli as run
from encspec.analyse import charts
from encspec.cli import main
from encspec.io import stream
from encspec.pipeline import load

SVG = "{http://www.w3.org/2000/svg}"


# ------------------------------------------------------------ 5. fallback, API
def test_valid_input_is_decoded_with_the_spec():
    """"check for UTF-8 correctness": valid UTF-8 stays UTF-8, even Latin-1 look-alikes —
    "It is technically true that this may detect an ISO-8859-1 string as UTF-8, but this
    is very unlikely if it contains any 8-bit bytes as they all have to be in unusual
    patterns of two or more in a row, such as "£"."  (C2 A3: Latin-1 "Â£", UTF-8 "£".)"""
    assert encspec.decode_or_fallback(b"caf\xc3\xa9") == ("café", "utf-8")
    assert encspec.decode_or_fallback(b"\xc2\xa3") == ("£", "utf-8")
    assert encspec.decode_or_fallback(b"") == ("", "utf-8")


def test_invalid_input_is_all_decoded_with_cp1252():
    """"if that fails assume the input to be in the legacy encoding": the whole input, its
    valid-looking UTF-8 too.  CP1252: "For example, 0x80 becomes the Euro sign, U+20AC." """
    assert encspec.decode_or_fallback(b"\x80 5") == ("\u20ac 5", "cp1252")
    # C3 A9 is UTF-8 for é, but the E9 later makes the input invalid: all of it is cp1252
    assert encspec.decode_or_fallback(b"caf\xc3\xa9 \xe9") == ("caf\u00c3\u00a9 \u00e9", "cp1252")


def test_any_python_codec_by_name_and_the_name_reported_is_canonical():
    """"the Unicode code points U+0080–U+00FF with the same value as the byte, thus
    interpreting the bytes according to ISO-8859-1"."""
    assert encspec.decode_or_fallback(b"\x80\xe9", fallback="latin-1") == ("\u0080\u00e9", "iso8859-1")
    assert encspec.decode_or_fallback(b"\x80", fallback="windows-1252") == ("\u20ac", "cp1252")
    assert encspec.decode_or_fallback(b"\x80", fallback="cp437") == ("\u00c7", "cp437")   # cp437: 80 is Ç
    # any spec, too; and an encspec codec as the fallback
    assert encspec.decode_or_fallback(b"\xed\xa0\x80", spec="wtf-8") == ("\ud800", "wtf-8")
    assert encspec.decode_or_fallback(b"\xed\xa0\x80", fallback="wtf-8") == ("\ud800", "wtf-8")


def test_unknown_or_non_text_fallback_is_refused_before_decoding():
    with pytest.raises(LookupError, match="unknown fallback encoding 'no-such-codec'"):
        encspec.decode_or_fallback(b"ok", fallback="no-such-codec")
    with pytest.raises(LookupError, match="not a text encoding"):
        encspec.decode_or_fallback(b"ok", fallback="base64")


def test_legacy_decode_goes_through_the_error_handler():
    """Python's cp1252 leaves 81 undefined; encspec.cp1252 maps it to U+0081 as browsers do."""
    with pytest.raises(UnicodeDecodeError):
        encspec.decode_or_fallback(b"\x81")
    assert encspec.decode_or_fallback(b"\x81", errors="encspec.cp1252") == ("\u0081", "cp1252")


def test_reserved_runs_and_signatures_count_as_valid():
    """corrected-utf-8.txt: decoders "MUST treat sequences beginning with FE or FF as
    reserved for future use and as extending until the next recognized lead byte, rather
    than as invalid": a reserved run does not make the input fall back (the text decode
    then meets it as a problem: replace gives U+FFFD); allow_reserved=False does.  A
    signature is no error either (utf-8-bom: EF BB BF at the start is not text)."""
    data = b"ab\xfe\x80c"
    assert encspec.decode_or_fallback(data, "corrected-utf-8", errors="replace") == ("ab\ufffdc", "corrected-utf-8")
    with pytest.raises(UnicodeDecodeError, match="reserved sequence"):
        encspec.decode_or_fallback(data, "corrected-utf-8")
    assert encspec.decode_or_fallback(data, "corrected-utf-8", allow_reserved=False) == ("ab\u00fe\u20acc", "cp1252")
    assert encspec.decode_or_fallback(b"\xef\xbb\xbfhi", "utf-8-bom") == ("hi", "utf-8-bom")


# ------------------------------------------------------------ 5. fallback, CLI
def test_cli_reports_which_encoding_it_used(tmp_path, capsysbinary):
    good, bad = tmp_path / "good.txt", tmp_path / "bad.txt"
    good.write_bytes("café\n".encode())
    bad.write_bytes(b"caf\xe9 \x80\n")         # E9 then a space: an invalid continuation at byte 3
    assert run(capsysbinary, "decode", "utf-8", good, "--fallback") == (0, "café\n".encode(), b"decoded as utf-8 (valid)\n")
    rc, out, err = run(capsysbinary, "decode", "utf-8", bad, "--fallback")
    assert (rc, out) == (0, "café €\n".encode())
    assert err == b"decoded as cp1252 (not valid utf-8: byte 3: invalid continuation byte)\n"
    rc, out, err = run(capsysbinary, "decode", "utf-8", bad, "--fallback=latin-1", "-o", tmp_path / "out.txt")
    assert (rc, out) == (0, b"") and err.startswith(b"decoded as iso8859-1 (")
    assert (tmp_path / "out.txt").read_text("utf-8") == "café \u0080\n"


def test_cli_stdin_is_read_twice_and_problems_past_the_first_chunk(tmp_path, capsysbinary, monkeypatch):
    """Validation is one streaming pass, decoding a second: stdin is spooled for it."""
    monkeypatch.setattr(stream, "CHUNK_SIZE", 4)
    stdin(monkeypatch, "é".encode() + b"0123456789\xff")    # FF at byte 12
    rc, out, err = run(capsysbinary, "decode", "utf-8", "--fallback")
    assert (rc, out) == (0, "Ã©0123456789ÿ".encode())
    assert err == b"decoded as cp1252 (not valid utf-8: byte 12: invalid start byte)\n"
    stdin(monkeypatch, "é".encode() * 9)
    assert run(capsysbinary, "decode", "utf-8", "-", "--fallback") == (0, "é".encode() * 9, b"decoded as utf-8 (valid)\n")


def test_cli_reserved_runs(tmp_path, capsysbinary):
    f = tmp_path / "r.bin"
    f.write_bytes(b"ab\xfe\x80c")
    rc, out, err = run(capsysbinary, "decode", "corrected-utf-8", f, "--fallback", "--errors", "replace")
    assert (rc, out, err) == (0, "ab\ufffdc".encode(), b"decoded as corrected-utf-8 (valid)\n")
    rc, out, err = run(capsysbinary, "decode", "corrected-utf-8", f, "--reject-reserved", "--fallback")
    assert (rc, out) == (0, "abþ€c".encode())
    assert err == b"decoded as cp1252 (not valid corrected-utf-8: byte 2: reserved sequence)\n"


def test_cli_bad_fallback_and_flags_are_one_line_exit_2(tmp_path, capsysbinary):
    f = tmp_path / "in.txt"
    f.write_bytes(b"ok")
    rc, out, err = run(capsysbinary, "decode", "utf-8", f, "--fallback", "no-such-codec")
    assert (rc, out) == (2, b"") and err.count(b"\n") == 1
    assert err.startswith(b"encspec: error: unknown fallback encoding 'no-such-codec'")
    rc, _, err = run(capsysbinary, "decode", "utf-8", "--fallback", f)        # FILE taken as CODEC
    assert rc == 2 and err.count(b"\n") == 1 and b"put FILE before --fallback" in err
    rc, _, err = run(capsysbinary, "decode", "utf-8", f, "--fallback=hex")
    assert rc == 2 and err.count(b"\n") == 1 and b"not a text encoding" in err
    rc, _, err = run(capsysbinary, "decode", "utf-8", f, "--reject-reserved")
    assert (rc, err) == (2, b"encspec: error: --reject-reserved goes with --fallback\n")


def test_cli_legacy_failure_names_the_byte_and_leaves_out_untouched(tmp_path, capsysbinary):
    f, out_file = tmp_path / "in.bin", tmp_path / "out.txt"
    f.write_bytes(b"ab\x81")
    out_file.write_bytes(b"previous")
    rc, out, err = run(capsysbinary, "decode", "utf-8", f, "--fallback", "-o", out_file)
    assert (rc, out) == (1, b"")
    assert err == (f"encspec: error: {f}: byte 2: character maps to <undefined>: 81 "
                   "(decoding as cp1252; not valid utf-8: byte 2: invalid start byte)\n").encode()
    assert out_file.read_bytes() == b"previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.bin", "out.txt"]


# ------------------------------------------------------------ 6. the code page chart
def cells(svg_text: str) -> dict[str, dict]:
    root = ET.fromstring(svg_text.encode("utf-8"))
    out = {}
    for g in root.iter(f"{SVG}g"):
        classes = g.get("class", "").split()
        if "cell" in classes:
            texts = {t.get("class"): "".join(t.itertext()) for t in g.iter(f"{SVG}text")}
            kinds = set(classes) & set(charts.KINDS)
            out[g.get("data-byte")] = {"kind": kinds.pop(), "label": texts.get("label", ""),
                                       "sub": texts.get("sub", ""), "block": texts.get("block", "")}
    return out


# The article's table, row F_, cells F5..FF as it prints them (length, lowest code point):
#   "4 140000", "4 180000", "4 1C0000", "5 200000", "5 1000000", "5 2000000",
#   "5 3000000", "6 4000000", "6 40000000", and FE, FF empty.
# "The red cells in the F_ row (F5 to FD) indicate leading bytes of 4-byte or longer
#  sequences that cannot be valid ... and FE and FF were never defined for any purpose in UTF-8."
ARTICLE_RED_F = {"F5": ("4", "140000"), "F6": ("4", "180000"), "F7": ("4", "1C0000"),
                 "F8": ("5", "200000"), "F9": ("5", "1000000"), "FA": ("5", "2000000"),
                 "FB": ("5", "3000000"), "FC": ("6", "4000000"), "FD": ("6", "40000000"),
                 "FE": ("", ""), "FF": ("", "")}

# The article's lead cells: "The text shows the Unicode blocks encoded by sequences starting
# with this byte, and the hexadecimal code point shown in the cell is the lowest character
# value encoded using that leading byte."  Copied cell by cell from its table.
ARTICLE_LEADS = {
    "C2": ("Latin", "0080"), "C3": ("Latin", "00C0"), "C4": ("Latin", "0100"), "C5": ("Latin", "0140"),
    "C6": ("Latin", "0180"), "C7": ("Latin", "01C0"), "C8": ("Latin", "0200"), "C9": ("IPA", "0240"),
    "CA": ("IPA", "0280"), "CB": ("IPA", "02C0"), "CC": ("accents", "0300"), "CD": ("accents", "0340"),
    "CE": ("Greek", "0380"), "CF": ("Greek", "03C0"),
    "D0": ("Cyril", "0400"), "D1": ("Cyril", "0440"), "D2": ("Cyril", "0480"), "D3": ("Cyril", "04C0"),
    "D4": ("Cyril", "0500"), "D5": ("Armeni", "0540"), "D6": ("Hebrew", "0580"), "D7": ("Hebrew", "05C0"),
    "D8": ("Arabic", "0600"), "D9": ("Arabic", "0640"), "DA": ("Arabic", "0680"), "DB": ("Arabic", "06C0"),
    "DC": ("Syriac", "0700"), "DD": ("Arabic", "0740"), "DE": ("Thaana", "0780"), "DF": ("N'Ko", "07C0"),
    "E0": ("Indic", "0800"), "E1": ("Misc.", "1000"), "E2": ("Symbol", "2000"), "E3": ("Kana", "3000"),
    "E4": ("CJK", "4000"), "E5": ("CJK", "5000"), "E6": ("CJK", "6000"), "E7": ("CJK", "7000"),
    "E8": ("CJK", "8000"), "E9": ("CJK", "9000"), "EA": ("Asian", "A000"), "EB": ("Hangul", "B000"),
    "EC": ("Hangul", "C000"), "ED": ("Hangul", "D000"), "EE": ("PUA", "E000"), "EF": ("Forms", "F000"),
    "F0": ("SMP…", "10000"), "F3": ("SSP…", "C0000"), "F4": ("SPU…", "100000"),
}


@pytest.fixture(scope="module")
def utf8_chart(tmp_path_factory):
    """What `encspec chart utf-8 --codepage` writes."""
    out = tmp_path_factory.mktemp("chart") / "utf8.svg"
    assert main(["chart", "utf-8", "--codepage", "-o", str(out)]) == 0
    return cells(out.read_text("utf-8"))


def test_red_f5_to_ff_show_the_historical_leads(utf8_chart):
    for b, (label, sub) in ARTICLE_RED_F.items():
        assert utf8_chart[b]["kind"] == "never", b
        assert (utf8_chart[b]["label"], utf8_chart[b]["sub"]) == (label, sub), b
    # C0 and C1: "could be used only for a 2-byte encoding of a 7-bit ASCII character";
    # the article prints them "2 0000" and "2 0040"
    assert (utf8_chart["C0"]["label"], utf8_chart["C0"]["sub"]) == ("2", "0000")
    assert (utf8_chart["C1"]["label"], utf8_chart["C1"]["sub"]) == ("2", "0040")


def test_lead_cells_show_the_articles_block_names(utf8_chart):
    for b, (block, sub) in ARTICLE_LEADS.items():
        assert (utf8_chart[b]["block"], utf8_chart[b]["sub"]) == (block, sub), b
    # F1, F2: the article shows the unassigned U+40000 and U+80000 themselves, no block name
    assert (utf8_chart["F1"]["block"], utf8_chart["F1"]["sub"]) == ("", "40000")
    assert (utf8_chart["F2"]["block"], utf8_chart["F2"]["sub"]) == ("", "80000")
    assert not any(c["block"] for b, c in utf8_chart.items() if b not in ARTICLE_LEADS)


def test_single_byte_cells_as_in_the_article(utf8_chart):
    """The article's 0_..7_ rows: "NUL 0000", "SP 0020", "A 0041", "~ 007E", "DEL 007F"."""
    for b, label, sub in (("00", "NUL", "0000"), ("1B", "ESC", "001B"), ("20", "SP", "0020"),
                          ("41", "A", "0041"), ("7E", "~", "007E"), ("7F", "DEL", "007F")):
        assert (utf8_chart[b]["kind"], utf8_chart[b]["label"], utf8_chart[b]["sub"]) == ("single", label, sub)


def test_the_checked_in_chart_and_the_ancestor_option(tmp_path, capsys):
    """docs/ holds the same chart; --ancestor none leaves F8..FD blank; a bad one is one line, exit 2."""
    a = load("utf-8")[1]
    assert cells(charts.codepage_svg(a)) == cells(charts.codepage_svg(a, load("utf-8-rfc2279")[1]))
    plain = cells(charts.codepage_svg(a, None))
    assert all((plain[b]["label"], plain[b]["sub"]) == ("", "") for b in ("F8", "F9", "FA", "FB", "FC", "FD"))
    assert main(["chart", "utf-8", "--codepage", "--ancestor", "none", "-o", str(tmp_path / "n.svg")]) == 0
    assert cells((tmp_path / "n.svg").read_text("utf-8")) == plain
    capsys.readouterr()
    assert main(["chart", "utf-8", "--codepage", "--ancestor", "no-such-spec", "-o", str(tmp_path / "x.svg")]) == 2
    assert main(["chart", "utf-8", "--automaton", "--ancestor", "none", "-o", str(tmp_path / "x.dot")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2 and "--ancestor is for the code page chart" in err
    assert not (tmp_path / "x.svg").exists() and not (tmp_path / "x.dot").exists()


def test_block_names_only_where_the_byte_means_what_it_means_in_utf8():
    """Corrected UTF-8 numbers from other offsets (C0 80 is U+00A0): no UTF-8 block names."""
    cs = cells(charts.codepage_svg(load("corrected-utf-8")[1]))
    assert cs["C0"]["sub"] == "00A0" and not any(c["block"] for c in cs.values())
    # its descendants keep UTF-8's leads: WTF-8's ED is still Hangul from D000
    cs = cells(charts.codepage_svg(load("wtf-8")[1]))
    assert (cs["ED"]["block"], cs["ED"]["sub"]) == ("Hangul", "D000")
    assert (cs["FC"]["label"], cs["FC"]["sub"]) == ("6", "4000000")
