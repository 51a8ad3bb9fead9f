"""Hand-written oracle decoders/encoders, written from /work/shared/seeds/.

Independent ground truth for the compiler's generated decoders: nothing here
imports ``encspec``, ``codegen`` or ``generated``; standard library only.
Every oracle module exposes ``NAME``, ``tokens(data)`` and
``encode(codepoints, signature=False)``.
"""
