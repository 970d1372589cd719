"""Choose the core: the Cython extension, or its pure-Python twin.

``NQUEENS_PUREPYTHON=1`` (any value but empty or "0") forces the twin.
Otherwise the extension is imported; where it is missing, the twin is used
with one RuntimeWarning.
"""

from __future__ import annotations

import os
import warnings
from types import ModuleType


def _forced_pure() -> bool:
    return os.environ.get("NQUEENS_PUREPYTHON", "") not in ("", "0")


def _load() -> tuple[ModuleType, str]:
    if not _forced_pure():
        try:
            from . import _bitsolver

            return _bitsolver, "cython"
        except ImportError:
            warnings.warn(
                "nqueens: the compiled core is missing, so the pure-Python core runs instead, "
                "about 40 to 200 times slower; install a binary wheel "
                "(pip install --only-binary nqueens nqueens) or build with a C compiler "
                "(pip install --no-binary nqueens nqueens)",
                RuntimeWarning,
                stacklevel=3,
            )
    from . import _bitsolver_py

    return _bitsolver_py, "python"


core, IMPLEMENTATION = _load()
