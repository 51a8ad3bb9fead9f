"""The native backend: one CPython extension per spec, in one folder.

``ext`` writes the extension's C source (with ``encode``, ``forms`` and ``simd``
planning its encoder, straight paths and vector validation, from the templates
in ``templates/``), ``target`` registers it as the ``native`` export, and
``build`` compiles it into the cache and imports it (``encspec build --native``,
``encspec.load(SPEC, backend="native")``).
"""
