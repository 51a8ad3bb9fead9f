"""The benchmark harness behind ``encspec bench``: corpora, timings and reports.

Kept out of ``cli/`` (which holds only the commands): ``run`` times the backends
on the corpora, ``c`` the C export through ctypes, ``tools`` the outside tools
(iconv, node) and the machine, ``report`` the tables.  It reads ``codec``,
``emit`` and ``io``; the ``bench`` command is its only caller.
"""
