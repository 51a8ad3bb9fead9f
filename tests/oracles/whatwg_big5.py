"""WHATWG Big5 oracle: the Encoding Standard's "Big5 decoder" and "Big5 encoder",
with "index Big5 pointer" from "Indexes".

Source: encoding.bs (whatwg/encoding at commit a985b62a9b45); the algorithms are
transcribed in whatwg_cjk.py, which this module only names.  In short:

Lead bytes 81..FE, trail bytes 40..7E and A1..FE: pointer (lead - 0x81) x 157 +
trail - (0x40 if trail < 0x7F else 0x62) in index Big5 (with HKSCS), except that pointers
1133, 1135, 1164 and 1166 (88 62, 88 64, 88 A3, 88 A5) decode to two code points each:
their token's value is the tuple of the two.  The encoder skips pointers below
(0xA1 - 0x81) x 157 = 5024 and writes U+2550, U+255E, U+2561, U+256A, U+5341, U+5345
with their last pointer.  A bad trail byte that is ASCII is restored.

API (as every oracle): ``NAME``, ``LABEL`` (the WHATWG label given to TextDecoder),
``tokens(data)`` -> ``(kind, start, end, value)``, ``tokens_with_reasons(data)``,
``decode_codepoints(data)`` ("replacement" mode's output), ``fatal_throws(data)``,
``encode(codepoints)`` (ValueError naming the first unencodable index) and
``encode_positions(codepoints)`` -> ``(bytes, [indices of unencodable code points])``.
"""
from .whatwg_cjk import BIG5 as _ORACLE

NAME = _ORACLE.name
LABEL = _ORACLE.label
tokens = _ORACLE.tokens
tokens_with_reasons = _ORACLE.tokens_with_reasons
decode_codepoints = _ORACLE.decode_codepoints
fatal_throws = _ORACLE.fatal_throws
encode = _ORACLE.encode
encode_positions = _ORACLE.encode_positions
