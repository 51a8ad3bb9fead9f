"""UTF-16 oracle (the encoding scheme with an optional byte order mark).

Sources: The Unicode Standard, chapter 3, D98 UTF-16 encoding scheme (the
byte order is given by a leading byte order mark, FE FF big-endian or FF FE
little-endian, which is not part of the text), D91 and Table 3-5 for the
units (see ``utf_16le``); RFC 2781, section 3.2 (U+FEFF at the start of a
stream as byte order mark: FE FF big-endian, FF FE little-endian) and 4.3
(text labelled UTF-16 that starts with a BOM is read in that order, the BOM
not being part of the text).

Project decision (token contract of encspec issue 17), deliberately not
D98 / RFC 2781 4.3, which say that unmarked text is big-endian: WITHOUT a
signature the data is little-endian, as CPython's ``utf-16`` codec on a
little-endian machine and WHATWG's "UTF-16" label.  A signature only counts
at offset 0 and when complete (2 bytes); FE FF or FF FE anywhere else is the
char U+FEFF (or the noncharacter U+FFFE), as in CPython.

``encode(codepoints, signature=True)``: as CPython's ``utf-16`` encoder
(and the contract), the default writes the signature FF FE and then the
little-endian units; ``signature=False`` writes the little-endian units
alone.  ``byte_order(data)`` says which order the tokens after a signature
use ("little" or "big"): the order a surrogatepass handler must read units
in (CPython names it in the exception: ``utf-16-le`` / ``utf-16-be``).
"""
from . import utf_16le

NAME = "utf-16"
SIGNATURE = b"\xFF\xFE"                                     # what encode writes
SIGNATURES = {b"\xFF\xFE": "little", b"\xFE\xFF": "big"}    # RFC 2781 3.2


def byte_order(data: bytes) -> str:
    return SIGNATURES.get(bytes(data[:2]), "little")


def tokens_with_reasons(data: bytes) -> list:
    data = bytes(data)
    if data[:2] in SIGNATURES:
        return [("signature", 0, 2, None, None)] + utf_16le.scan_utf16(data, SIGNATURES[data[:2]], 2)
    return utf_16le.scan_utf16(data, "little")


def tokens(data: bytes) -> list:
    return [t[:4] for t in tokens_with_reasons(data)]


def encode(codepoints, signature: bool = True) -> bytes:
    body = utf_16le.serialise(utf_16le.units_of(codepoints, NAME), "little")
    return SIGNATURE + body if signature else body
