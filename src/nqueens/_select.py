"""Choose the core: the Cython extension, or its pure-Python twin.

``NQUEENS_PUREPYTHON`` set to a true value ("1", "true", "yes", "on", or any
other than "0", "false", "no", "off" and empty) forces the twin.
Otherwise the extension is imported; where it is missing, the twin is used
with one RuntimeWarning.

The compiled quadrant core carries its hot loops once per processor level
(baseline, v3, v4) and runs the best this processor has; ``NQUEENS_CPU``
set to one of them forces it (for tests and benchmarks), with one
RuntimeWarning when this processor lacks it or the name is unknown.
``CPU`` says which runs ("python" for the twins).
"""

from __future__ import annotations

import os
import warnings
from types import ModuleType
from typing import TYPE_CHECKING

from ._version import DISTRIBUTION


def _forced_pure() -> bool:
    value = os.environ.get("NQUEENS_PUREPYTHON", "").strip().lower()
    return value not in ("", "0", "false", "no", "off")


def _load() -> tuple[ModuleType, ModuleType, str]:
    if not _forced_pure():
        try:
            from . import _bitsolver, _quadrants

            return _bitsolver, _quadrants, "cython"
        except ImportError:
            warnings.warn(
                "nqueens: the compiled core is missing, so the pure-Python twin runs instead, "
                "much slower (BENCHMARKS.md); install a binary wheel "
                f"(pip install --only-binary {DISTRIBUTION} {DISTRIBUTION}) or build with a C "
                f"compiler (pip install --no-binary {DISTRIBUTION} {DISTRIBUTION})",
                RuntimeWarning,
                stacklevel=3,
            )
    from . import _bitsolver_py, _quadrants_py

    return _bitsolver_py, _quadrants_py, "python"


def _choose_cpu(quadrants: ModuleType, implementation: str) -> str:
    wanted = os.environ.get("NQUEENS_CPU", "").strip().lower()
    if wanted:
        try:
            quadrants.use_cpu(wanted)
        except ValueError as exc:
            runs = quadrants.cpu() if implementation == "cython" else "the pure-Python twin"
            warnings.warn(
                f"nqueens: NQUEENS_CPU={wanted} is ignored ({exc}); {runs} runs instead",
                RuntimeWarning,
                stacklevel=3,
            )
    return str(quadrants.cpu()) if implementation == "cython" else "python"


# the row-by-row core and the quadrant core, both compiled or both twins; mypy
# checks every call into them against the extension's stubs (_bitsolver.pyi,
# _quadrants.pyi), which the twins match (tests/cores/test_core_parity.py)
if TYPE_CHECKING:
    from . import _bitsolver as bitsolver, _quadrants as quadrants

    IMPLEMENTATION: str
    CPU: str
else:
    bitsolver, quadrants, IMPLEMENTATION = _load()
    CPU = _choose_cpu(quadrants, IMPLEMENTATION)

__all__ = ["CPU", "IMPLEMENTATION", "bitsolver", "quadrants"]
