"""construct(): one solution for any n, in O(n), by the classic explicit formula."""

from __future__ import annotations

from .._validate import as_int
from .render import Board

PLACEMENT_MAX_N = 10**7
"""The largest board construct() and random_solution() take: a tuple of n ints
(about 36 bytes a row, 360 MB at the limit)."""


def check_solvable(n: object) -> int:
    """Return n as an int if an n board has a solution, else raise TypeError / ValueError."""
    value = as_int(n, "n")
    if not 0 <= value <= PLACEMENT_MAX_N:
        raise ValueError(f"n must be between 0 and {PLACEMENT_MAX_N:,}, got {value}")
    if value in (2, 3):
        raise ValueError(f"the {value}-queens problem has no solution")
    return value


def construct(n: int) -> Board:
    """Return one solution of the n-queens problem for n = 1 and every n >= 4, in O(n).

    The explicit construction of Hoffman, Loessi and Moore (Mathematics
    Magazine 42, 1969), in the form given by Bernhardsson (SIGART Bulletin
    2(2), 1991): counting columns from 1, list the even columns then the odd
    ones; when n mod 6 is 2, swap 1 and 3 among the odd ones and move 5 to
    their end; when n mod 6 is 3, move 2 to the end of the even ones and 1, 3
    to the end of the odd ones.  Row i takes the i-th column of the list.
    No search, so it works for boards of millions of rows (memory O(n)).
    Unlike count() and solutions(), n is not bounded by MAX_N.

    Raises TypeError if n is not an int, ValueError for n = 2 and 3 (which
    have no solution) and for n outside 0..PLACEMENT_MAX_N (10**7).

    Parameters
    ----------
    n
        The board's side, 0, 1 or 4 to PLACEMENT_MAX_N.

    Returns
    -------
    Board
        A solution, a column per row: a tuple that shows itself (``str()``, notebooks).

    Raises
    ------
    TypeError
        n is not an int.
    ValueError
        n = 2 or 3 (no solution), or n outside 0..PLACEMENT_MAX_N.

    Examples
    --------
    >>> construct(8)
    (1, 3, 5, 7, 2, 0, 6, 4)
    >>> construct(1)
    (0,)
    """
    n = check_solvable(n)
    # 1-based columns, as the formula is usually stated
    evens = list(range(2, n + 1, 2))
    odds = list(range(1, n + 1, 2))
    if n % 6 == 2:
        odds[0], odds[1] = odds[1], odds[0]
        odds.remove(5)
        odds.append(5)
    elif n % 6 == 3:
        evens.remove(2)
        evens.append(2)
        odds = [*odds[2:], 1, 3]
    return tuple.__new__(Board, (c - 1 for c in evens + odds))  # a solution: no check needed
