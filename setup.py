"""The native backend's extensions; everything else is in pyproject.toml.

One CPython extension per built-in spec, ``encspec.generated._native_<module>``,
from the checked-in C source ``generated/native/<module>.c`` (``encspec build``
writes it).  They are optional: without a C compiler the install still
succeeds and every module decodes in pure Python (``encspec.load(name,
backend="native")`` then says why it cannot).  So that this is never silent,
build_ext ends with a two-line note on stderr naming the first compiler error
(``pip install -v`` shows it; pip hides a successful build's output otherwise).
The extensions compile in parallel, one per core (``build_ext --parallel N`` or
``-j N`` still chooses): one after another they cost minutes of wall time.
"""
import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import BaseError, CCompilerError, CompileError

HERE = Path(__file__).resolve().parent


class BuildExt(build_ext):
    """build_ext that says, once, when optional extensions could not be built and why."""

    def initialize_options(self):
        super().initialize_options()
        self.parallel = os.cpu_count() or 1

    def build_extensions(self):
        # no debug information: -g costs a fifth of each extension's compile time
        # (utf_8.c: 1.86 s of CPU with -g -O3, 1.47 s with -g0 -O3) and nothing at run time
        if self.compiler.compiler_type == "unix":
            for ext in self.extensions:
                ext.extra_compile_args = [*ext.extra_compile_args, "-g0"]
        super().build_extensions()

    def run(self):
        self._failed = []
        super().run()
        if self._failed:
            name, why = min(self._failed)  # built in parallel: the same one every time
            print(f"WARNING: encspec: {len(self._failed)} of {len(self.extensions)} native extensions "
                  f"could not be built ({name}: {why})", file=sys.stderr)
            print("WARNING: encspec: everything works in pure Python, only slower; install a C compiler "
                  "and the Python headers, then reinstall, for the native backend", file=sys.stderr)

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except (CCompilerError, CompileError, BaseError) as e:  # what build_ext forgives an optional one
            lines = str(e).strip().splitlines()
            self._failed.append((ext.name.rsplit(".", 1)[-1], lines[0] if lines else type(e).__name__))
            raise


setup(
    cmdclass={"build_ext": BuildExt},
    ext_modules=[
        Extension(
            f"encspec.generated._native_{source.stem}",
            sources=[source.relative_to(HERE).as_posix()],
            optional=True,
        )
        for source in sorted((HERE / "generated" / "native").glob("*.c"))
    ],
)
