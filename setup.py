"""Build the one extension, nqueens._bitsolver, unless it cannot or must not be.

NQUEENS_PUREPYTHON=1 (or an interpreter other than CPython) skips it, and the
package then runs on its pure-Python twin.
"""

import os
import platform

from setuptools import setup

ext_modules = []
if os.environ.get("NQUEENS_PUREPYTHON", "") in ("", "0") and platform.python_implementation() == "CPython":
    from Cython.Build import cythonize
    from setuptools import Extension

    ext_modules = cythonize(
        [Extension("nqueens._bitsolver", ["src/nqueens/_bitsolver.pyx"], extra_compile_args=["-O3"])]
    )  # the compiler directives are in the .pyx header

setup(ext_modules=ext_modules)
