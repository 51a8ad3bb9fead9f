"""Commands beyond the core ones in main.py: each module here defines ``command``
(a click command named like the module) and is added to ``encspec`` automatically,
imported only when that command runs (see ``cli/lazy.py``)."""
