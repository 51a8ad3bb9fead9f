"""WHATWG EUC-JP oracle: the Encoding Standard's "EUC-JP decoder" and "EUC-JP encoder".

Source: encoding.bs (whatwg/encoding at commit a985b62a9b45); the algorithms are
transcribed in whatwg_cjk.py, which this module only names.  In short:

Two bytes A1..FE A1..FE are pointer (lead - 0xA1) x 94 + trail - 0xA1 in index jis0208;
8E A1..DF is halfwidth katakana U+FF61..U+FF9F; 8F then two bytes A1..FE is the same
pointer in index jis0212 (decode only: the encoder writes jis0208 alone).  A bad
trail byte that is ASCII is restored; 8F A1..FE followed by a bad byte is one error of
the two bytes read before it.

API (as every oracle): ``NAME``, ``LABEL`` (the WHATWG label given to TextDecoder),
``tokens(data)`` -> ``(kind, start, end, value)``, ``tokens_with_reasons(data)``,
``decode_codepoints(data)`` ("replacement" mode's output), ``fatal_throws(data)``,
``encode(codepoints)`` (ValueError naming the first unencodable index) and
``encode_positions(codepoints)`` -> ``(bytes, [indices of unencodable code points])``.
"""
from .whatwg_cjk import EUC_JP as _ORACLE

NAME = _ORACLE.name
LABEL = _ORACLE.label
tokens = _ORACLE.tokens
tokens_with_reasons = _ORACLE.tokens_with_reasons
decode_codepoints = _ORACLE.decode_codepoints
fatal_throws = _ORACLE.fatal_throws
encode = _ORACLE.encode
encode_positions = _ORACLE.encode_positions
