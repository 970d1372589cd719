"""Count, list, construct and check solutions of the n-queens problem, fast.

The search runs in two compiled cores, quadrant assembly for counts from
n = 12 on and the row-by-row bitmask search for the rest
(``IMPLEMENTATION == "cython"``), or, where they are missing or
``NQUEENS_PUREPYTHON=1`` is set, in their pure-Python twins (``"python"``).
The quadrant core's hot loops run in the best variant this processor has:
``CPU`` is "baseline" (any x86-64, or another processor), "v3" (AVX2) or
"v4" (AVX-512 with VPOPCNTDQ and GFNI); ``NQUEENS_CPU`` forces one.
"""

from typing import TYPE_CHECKING, Any

from . import _early, _lasting

_early.guard()  # the command line: Ctrl-C and SIGTERM end it quietly from here on

with _lasting.no_collection():  # (the module says why)
    from ._select import CPU, IMPLEMENTATION  # the core is chosen, and said, at import
    from ._validate import MAX_N
    from ._version import __version__

if TYPE_CHECKING:
    from ._assembly import QuadrantTask
    from ._checking import Conflict, attacking_pairs, conflicts, is_solution
    from ._construct import PLACEMENT_MAX_N, construct
    from ._counting import LongCountWarning, count
    from ._enumerating import solutions
    from ._estimate import Estimate, estimate
    from ._executors import BrokenWorkers, ExecutorError
    from ._journal import JournalError
    from ._random_solution import random_solution
    from ._render import SVG, SVG_MAX_N, SVG_MAX_SIZE, Board, render, render_lines, to_svg
    from ._tasks import Subproblem, count_subproblem, subproblems

# The rest is imported on first use (PEP 562), so that a program (or the
# command line) that counts does not load what lists, draws or estimates.
_HOME = {
    name: home
    for home, names in {
        "_assembly": ("QuadrantTask",),
        "_checking": ("Conflict", "attacking_pairs", "conflicts", "is_solution"),
        "_construct": ("PLACEMENT_MAX_N", "construct"),
        "_counting": ("LongCountWarning", "count"),
        "_enumerating": ("solutions",),
        "_estimate": ("Estimate", "estimate"),
        "_executors": ("BrokenWorkers", "ExecutorError"),
        "_journal": ("JournalError",),
        "_random_solution": ("random_solution",),
        "_render": (
            "SVG",
            "SVG_MAX_N",
            "SVG_MAX_SIZE",
            "Board",
            "render",
            "render_lines",
            "to_svg",
        ),
        "_tasks": ("Subproblem", "count_subproblem", "subproblems"),
    }.items()
    for name in names
}  # the imports above, module by module


def _load(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'nqueens' has no attribute {name!r}")
    import importlib

    with _lasting.no_collection():
        value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value  # once: the next use reads the module's dict
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


if not TYPE_CHECKING:  # (a type checker sees the imports above: a misspelt name stays an error)
    __getattr__ = _load


__all__ = [
    "CPU",
    "IMPLEMENTATION",
    "MAX_N",
    "PLACEMENT_MAX_N",
    "SVG",
    "SVG_MAX_N",
    "SVG_MAX_SIZE",
    "Board",
    "BrokenWorkers",
    "Conflict",
    "Estimate",
    "ExecutorError",
    "JournalError",
    "LongCountWarning",
    "QuadrantTask",
    "Subproblem",
    "__version__",
    "attacking_pairs",
    "conflicts",
    "construct",
    "count",
    "count_subproblem",
    "estimate",
    "is_solution",
    "random_solution",
    "render",
    "render_lines",
    "solutions",
    "subproblems",
    "to_svg",
]
