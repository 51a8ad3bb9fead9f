"""The native backend's extensions; everything else is in pyproject.toml.

One CPython extension per built-in spec, ``encspec.generated._native_<module>``,
from the checked-in C source ``generated/native/<module>.c`` (``encspec build``
writes it).  They are optional: without a C compiler the install still
succeeds and every module decodes in pure Python (``encspec.load(name,
backend="native")`` then says why it cannot).
"""
from pathlib import Path

from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent

setup(ext_modules=[
    Extension(
        f"encspec.generated._native_{source.stem}",
        sources=[source.relative_to(HERE).as_posix()],
        optional=True,
    )
    for source in sorted((HERE / "generated" / "native").glob("*.c"))
])
