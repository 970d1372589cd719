"""Build the two extensions, nqueens._bitsolver and nqueens._quadrants, unless they cannot
or must not be.

NQUEENS_PUREPYTHON=1 (or an interpreter other than CPython) skips them on
purpose.  Where they cannot be built (no working C compiler), the package is
installed without them, with one warning, and runs on the pure-Python twins
(markupsafe's fallback).  The extensions carry no debug information unless
CFLAGS asks for it (-g).

On CPython 3.11 and later they are built against the Limited API (the stable
ABI): one cp311-abi3 wheel serves 3.11, 3.12, 3.13, 3.14 and later.
NQUEENS_LIMITED_API=0 builds them for this interpreter alone (and a
free-threaded CPython, which has no stable ABI, always does).
"""

import glob
import os
import platform
import re
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, ExecError, PlatformError

BUILD_FAILED = (CCompilerError, ExecError, PlatformError, OSError, ValueError)


def forced_pure() -> bool:
    value = os.environ.get("NQUEENS_PUREPYTHON", "").strip().lower()
    return value not in ("", "0", "false", "no", "off")


def limited_api() -> bool:
    if os.environ.get("NQUEENS_LIMITED_API", "").strip().lower() in ("0", "false", "no", "off"):
        return False
    return sys.version_info >= (3, 11) and not sysconfig.get_config_var("Py_GIL_DISABLED")


LIMITED_API = limited_api()  # the buffer protocol that the cores take is in it from 3.11

# Cython's Limited API module init imports `inspect` only to read seven code-object flags:
# about 7 ms at the start of every process that imports nqueens (a quarter of the import).
# The flags are given here instead (their values have not changed since Python 2;
# tests/test_distribution.py checks them against inspect's), and the import is left out of
# the generated C where every one of them is known at compile time.
CODE_FLAGS = {
    "CO_OPTIMIZED": 0x1,
    "CO_NEWLOCALS": 0x2,
    "CO_VARARGS": 0x4,
    "CO_VARKEYWORDS": 0x8,
    "CO_GENERATOR": 0x20,
    "CO_COROUTINE": 0x80,
    "CO_ASYNC_GENERATOR": 0x200,
}
INSPECT_IMPORT = '    inspect = PyImport_ImportModule("inspect");\n'
NO_INSPECT_IMPORT = (
    "#if " + " && ".join(f"defined({flag})" for flag in CODE_FLAGS) + "\n"
    "    (void)__Pyx_init_co_variable;  /* nqueens: every flag is known, no inspect */\n"
    "    inspect = Py_None;\n"
    "    Py_INCREF(inspect);\n"
    "#else\n" + INSPECT_IMPORT + "#endif\n"
)


def skip_inspect(source: str) -> None:
    """Leave the import of inspect out of one generated C file (once; where Cython's
    text differs, the file is left as it is and imports inspect)."""
    with open(source, encoding="utf-8") as file:
        text = file.read()
    if text.count(INSPECT_IMPORT) == 1 and NO_INSPECT_IMPORT not in text:
        with open(source, "w", encoding="utf-8") as file:
            file.write(text.replace(INSPECT_IMPORT, NO_INSPECT_IMPORT))


def warn_pure(reason: object) -> None:
    sys.stderr.write(
        f"WARNING: nqueens-count: the compiled core could not be built ({reason}); the "
        "package is installed on its pure-Python core, much slower. Install a C "
        "compiler and reinstall, or install a binary wheel.\n"
    )


class OptionalBuildExt(build_ext):
    """Compile with flags for the compiler at hand; without one, build nothing."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:  # the two extensions compiled side by side where there are cores
            self.parallel = True

    def run(self) -> None:
        try:
            super().run()
        except BUILD_FAILED as exc:
            warn_pure(exc)

    def build_extension(self, ext: Extension) -> None:
        if self.compiler.compiler_type == "msvc":
            ext.extra_compile_args = ["/O2"]
        else:
            debug = "-g" in os.environ.get("CFLAGS", "").split()
            ext.extra_compile_args = ["-O3"] + ([] if debug else ["-g0"])
        # the flags, as the core reports them (nqueens bench): CFLAGS, then ours
        flags = " ".join([os.environ.get("CFLAGS", "").strip(), *ext.extra_compile_args]).strip()
        flags = re.sub(r"[^A-Za-z0-9 =_.,:+/-]", "", flags)
        ext.define_macros = [("NQ_CFLAGS", f'"{flags}"')]
        if LIMITED_API:
            ext.define_macros.append(("Py_LIMITED_API", "0x030B0000"))
            ext.define_macros += [(flag, hex(value)) for flag, value in CODE_FLAGS.items()]
        try:
            super().build_extension(ext)
        except BUILD_FAILED as exc:
            warn_pure(exc)


ext_modules = []
if not forced_pure() and platform.python_implementation() == "CPython":
    from Cython.Build import cythonize

    ext_modules = cythonize(
        [
            Extension(
                "nqueens._bitsolver",
                ["src/nqueens/_bitsolver.pyx"],
                depends=["src/nqueens/_native/bits.h", *glob.glob("src/nqueens/_native/*.pxi")],
                py_limited_api=LIMITED_API,
            ),
            Extension(
                "nqueens._quadrants",
                ["src/nqueens/_quadrants.pyx"],
                depends=glob.glob("src/nqueens/_native/*.h"),
                py_limited_api=LIMITED_API,
            ),
        ],
        # the two translated side by side (not on Windows, where the pool would import this
        # script again)
        nthreads=0 if os.name == "nt" else min(2, os.cpu_count() or 1),
    )  # the compiler directives are in the .pyx header
    if LIMITED_API:
        for ext in ext_modules:
            for source in ext.sources:
                skip_inspect(source)

setup(
    ext_modules=ext_modules,
    cmdclass={"build_ext": OptionalBuildExt},
    # the wheel's tag: cp311-abi3 where the extensions are built for the stable ABI
    options={"bdist_wheel": {"py_limited_api": "cp311"}} if LIMITED_API and ext_modules else {},
)
