"""WHATWG EUC-KR oracle: the Encoding Standard's "EUC-KR decoder" and "EUC-KR encoder".

Source: encoding.bs (whatwg/encoding at commit a985b62a9b45); the algorithms are
transcribed in whatwg_cjk.py, which this module only names.  In short:

Lead bytes 81..FE, trail bytes 41..FE: pointer (lead - 0x81) x 190 + trail - 0x41 in
index EUC-KR (KS X 1001 with the Unified Hangul Code extension, i.e. windows-949).
A bad trail byte that is ASCII is restored.

API (as every oracle): ``NAME``, ``LABEL`` (the WHATWG label given to TextDecoder),
``tokens(data)`` -> ``(kind, start, end, value)``, ``tokens_with_reasons(data)``,
``decode_codepoints(data)`` ("replacement" mode's output), ``fatal_throws(data)``,
``encode(codepoints)`` (ValueError naming the first unencodable index) and
``encode_positions(codepoints)`` -> ``(bytes, [indices of unencodable code points])``.
"""
from .whatwg_cjk import EUC_KR as _ORACLE

NAME = _ORACLE.name
LABEL = _ORACLE.label
tokens = _ORACLE.tokens
tokens_with_reasons = _ORACLE.tokens_with_reasons
decode_codepoints = _ORACLE.decode_codepoints
fatal_throws = _ORACLE.fatal_throws
encode = _ORACLE.encode
encode_positions = _ORACLE.encode_positions
