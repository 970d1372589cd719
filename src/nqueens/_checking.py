"""is_solution(): check a placement."""

from __future__ import annotations

from collections.abc import Sequence

from ._validate import _int_or_raise


def _columns(placement: Sequence[int]) -> list[int]:
    """The placement as a list of ints on its own board, or raise."""
    if isinstance(placement, (str, bytes)) or not hasattr(placement, "__len__"):
        raise TypeError(f"placement must be a sequence of ints, not {type(placement).__name__}")
    columns = [_int_or_raise(c, f"placement[{row}]") for row, c in enumerate(placement)]
    n = len(columns)
    for row, c in enumerate(columns):
        if not 0 <= c < n:
            raise ValueError(
                f"placement[{row}] = {c} is off the board: columns run from 0 to {n - 1}"
            )
    return columns


def is_solution(placement: Sequence[int]) -> bool:
    """Return whether no two queens of a placement attack each other.

    A placement is a sequence of n column indices, one per row, 0-based, on
    an n x n board: any sequence of ints (tuple, list, array).  Raises
    TypeError for a non-int entry and ValueError for a column off the board.

    >>> is_solution((1, 3, 0, 2))
    True
    >>> is_solution([0, 2, 1, 3])
    False
    """
    columns = _columns(placement)
    n = len(columns)
    return (
        len(set(columns)) == n
        and len({row + c for row, c in enumerate(columns)}) == n
        and len({row - c for row, c in enumerate(columns)}) == n
    )
