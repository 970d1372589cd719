"""Count, list, construct and check solutions of the n-queens problem, fast.

The search runs in two compiled cores, quadrant assembly for counts from
n = 12 on and the row-by-row bitmask search for the rest
(``IMPLEMENTATION == "cython"``), or, where they are missing or
``NQUEENS_PUREPYTHON=1`` is set, in their pure-Python twins (``"python"``).
The quadrant core's hot loops run in the best variant this processor has:
``CPU`` is "baseline" (any x86-64, or another processor), "v3" (AVX2) or
"v4" (AVX-512 with VPOPCNTDQ); ``NQUEENS_CPU`` forces one.
"""

from . import _lasting

with _lasting.no_collection():  # (the module says why)
    from ._assembly import QuadrantTask
    from ._checking import Conflict, attacking_pairs, conflicts, is_solution
    from ._construct import PLACEMENT_MAX_N, construct
    from ._counting import count
    from ._enumerating import solutions
    from ._estimate import Estimate, estimate
    from ._executors import BrokenWorkers, ExecutorError
    from ._journal import JournalError
    from ._random_solution import random_solution
    from ._render import SVG, SVG_MAX_N, SVG_MAX_SIZE, Board, render, render_lines, to_svg
    from ._select import CPU, IMPLEMENTATION
    from ._tasks import Subproblem, count_subproblem, subproblems
    from ._validate import MAX_N
    from ._version import __version__

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
