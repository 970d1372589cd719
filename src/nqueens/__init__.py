"""Count and list the solutions of the n-queens problem, fast.

The search runs in a compiled bitmask core (``IMPLEMENTATION == "cython"``)
or, where that is missing or ``NQUEENS_PUREPYTHON=1`` is set, in its
pure-Python twin (``"python"``).
"""

from ._checking import is_solution
from ._counting import count
from ._enumerating import solutions
from ._select import IMPLEMENTATION
from ._validate import MAX_N
from ._version import __version__

__all__ = ["IMPLEMENTATION", "MAX_N", "__version__", "count", "is_solution", "solutions"]
