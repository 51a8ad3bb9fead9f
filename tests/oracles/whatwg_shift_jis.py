"""WHATWG Shift_JIS oracle: the Encoding Standard's "Shift_JIS decoder" and
"Shift_JIS encoder", with "index Shift_JIS pointer" (index jis0208 without pointers
8272..8835) from "Indexes".

Source: encoding.bs (whatwg/encoding at commit a985b62a9b45); the algorithms are
transcribed in whatwg_cjk.py, which this module only names.  In short:

Lead bytes 81..9F and E0..FC; a trail byte 40..7E or 80..FC makes pointer
(lead - (0x81 if lead < 0xA0 else 0xC1)) x 188 + trail - (0x40 if trail < 0x7F else 0x41),
looked up in index jis0208, except that pointers 8836..10715 are the EUDC range
U+E000..U+E757.  Single bytes: ASCII and 0x80 are themselves, A1..DF are U+FF61..U+FF9F;
A0 and FD..FF are errors.  A bad trail byte that is ASCII is restored (reprocessed).

API (as every oracle): ``NAME``, ``LABEL`` (the WHATWG label given to TextDecoder),
``tokens(data)`` -> ``(kind, start, end, value)``, ``tokens_with_reasons(data)``,
``decode_codepoints(data)`` ("replacement" mode's output), ``fatal_throws(data)``,
``encode(codepoints)`` (ValueError naming the first unencodable index) and
``encode_positions(codepoints)`` -> ``(bytes, [indices of unencodable code points])``.
"""
from .whatwg_cjk import SHIFT_JIS as _ORACLE

NAME = _ORACLE.name
LABEL = _ORACLE.label
tokens = _ORACLE.tokens
tokens_with_reasons = _ORACLE.tokens_with_reasons
decode_codepoints = _ORACLE.decode_codepoints
fatal_throws = _ORACLE.fatal_throws
encode = _ORACLE.encode
encode_positions = _ORACLE.encode_positions
