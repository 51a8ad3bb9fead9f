"""UTF-8 with byte order mark oracle.

Source: utf-8-encyclopedia-article.txt, "Byte order mark": the bytes
EF BB BF at the start of a document are the UTF-8 BOM.  The encoding is
UTF-8 (rules reused from ``utf_8``, which is written from the same article)
plus the signature: EF BB BF at offset 0 is a ``signature`` token; anywhere
else it is just U+FEFF (this matches CPython's ``utf-8-sig`` decoder).
"""
from . import utf_8
from ._driver import scan

NAME = "utf-8-bom"
SIGNATURE = b"\xEF\xBB\xBF"


def tokens(data: bytes):
    return scan(data, rows=utf_8.ROWS, value=utf_8.value, signature=SIGNATURE)


def encode(codepoints, signature: bool = False) -> bytes:
    body = utf_8.encode_body(codepoints, NAME)
    return SIGNATURE + body if signature else body
