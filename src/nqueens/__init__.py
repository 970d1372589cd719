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
    from ._engine.assembly import QuadrantTask as QuadrantTask
    from ._engine.counting import LongCountWarning as LongCountWarning, count as count
    from ._engine.estimate import Estimate as Estimate, estimate as estimate
    from ._engine.journal import JournalError as JournalError
    from ._engine.subproblems import (
        Subproblem as Subproblem,
        count_subproblem as count_subproblem,
        subproblems as subproblems,
    )
    from ._engine.workers.messages import (
        BrokenWorkers as BrokenWorkers,
        ExecutorError as ExecutorError,
    )
    from ._placements.checking import (
        Conflict as Conflict,
        attacking_pairs as attacking_pairs,
        conflicts as conflicts,
        is_solution as is_solution,
    )
    from ._placements.construct import PLACEMENT_MAX_N as PLACEMENT_MAX_N, construct as construct
    from ._placements.random_solution import random_solution as random_solution
    from ._placements.render import (
        SVG as SVG,
        SVG_MAX_N as SVG_MAX_N,
        SVG_MAX_SIZE as SVG_MAX_SIZE,
        Board as Board,
        render as render,
        render_lines as render_lines,
        to_svg as to_svg,
    )
    from ._placements.solutions import solutions as solutions

# The rest is imported on first use (PEP 562), so that a program (or the
# command line) that counts does not load what lists, draws or estimates.  This table is
# where each public name lives; __all__ and dir() derive from it, and the imports above give
# type checkers the same names (tests/test_distribution.py holds the two equal).
_HOME = {
    "Board": "_placements.render",
    "BrokenWorkers": "_engine.workers.messages",
    "Conflict": "_placements.checking",
    "Estimate": "_engine.estimate",
    "ExecutorError": "_engine.workers.messages",
    "JournalError": "_engine.journal",
    "LongCountWarning": "_engine.counting",
    "PLACEMENT_MAX_N": "_placements.construct",
    "QuadrantTask": "_engine.assembly",
    "SVG": "_placements.render",
    "SVG_MAX_N": "_placements.render",
    "SVG_MAX_SIZE": "_placements.render",
    "Subproblem": "_engine.subproblems",
    "attacking_pairs": "_placements.checking",
    "conflicts": "_placements.checking",
    "construct": "_placements.construct",
    "count": "_engine.counting",
    "count_subproblem": "_engine.subproblems",
    "estimate": "_engine.estimate",
    "is_solution": "_placements.checking",
    "random_solution": "_placements.random_solution",
    "render": "_placements.render",
    "render_lines": "_placements.render",
    "solutions": "_placements.solutions",
    "subproblems": "_engine.subproblems",
    "to_svg": "_placements.render",
}


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


__all__ = ["CPU", "IMPLEMENTATION", "MAX_N", "__version__", *_HOME]
