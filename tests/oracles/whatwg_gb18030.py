"""WHATWG gb18030 oracle: the Encoding Standard's "gb18030 decoder" and "gb18030
encoder", with "index gb18030 ranges code point" and "index gb18030 ranges pointer"
from "Indexes".

Source: encoding.bs (whatwg/encoding at commit a985b62a9b45); the algorithms are
transcribed in whatwg_cjk.py, which this module only names.  In short:

0x80 is U+20AC; lead bytes 81..FE with a trail 40..7E or 80..FE are pointer
(lead - 0x81) x 190 + trail - (0x40 if trail < 0x7F else 0x41) in index gb18030; a
lead, a digit 30..39, a byte 81..FE and a digit are a four-byte pointer in the ranges
index (7457 is U+E7C7; 39420..188999 and above 1237575 are errors of all four bytes, no
restore).  A failing second byte that is ASCII is restored; a failing third byte
restores « second, byte »; a failing fourth byte restores « second, third, byte », so the error
is the lead byte alone.  The encoder refuses U+E5E5 and writes 18 Private Use code points
through its side table.

API (as every oracle): ``NAME``, ``LABEL`` (the WHATWG label given to TextDecoder),
``tokens(data)`` -> ``(kind, start, end, value)``, ``tokens_with_reasons(data)``,
``decode_codepoints(data)`` ("replacement" mode's output), ``fatal_throws(data)``,
``encode(codepoints)`` (ValueError naming the first unencodable index) and
``encode_positions(codepoints)`` -> ``(bytes, [indices of unencodable code points])``.
"""
from .whatwg_cjk import GB18030 as _ORACLE

NAME = _ORACLE.name
LABEL = _ORACLE.label
tokens = _ORACLE.tokens
tokens_with_reasons = _ORACLE.tokens_with_reasons
decode_codepoints = _ORACLE.decode_codepoints
fatal_throws = _ORACLE.fatal_throws
encode = _ORACLE.encode
encode_positions = _ORACLE.encode_positions
