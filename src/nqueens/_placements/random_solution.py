"""random_solution(): a random solution by local search, for boards of any size."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._validate import as_int
from .construct import check_solvable
from .render import Board
from .solutions import solutions

if TYPE_CHECKING:
    import random

# Up to this side the solutions are few enough to list and pick from, which
# makes every solution equally likely.
_LIST_MAX_N = 10
# Random columns tried per row while building the start, before the row
# settles for one with conflicts.
_TRIES_PER_ROW = 24


def random_solution(n: int, *, seed: int | None = None) -> Board:
    """Return a random solution of the n-queens problem, for n = 1 and every n >= 4.

    Up to n = 10 all the solutions are listed and one is picked uniformly.
    Above, min-conflicts local search over permutations (Minton, Johnston,
    Philips and Laird, Artificial Intelligence 58, 1992) in the form of Sosic
    and Gu (IEEE Trans. Knowledge and Data Engineering 6(5), 1994): rows are
    filled in random order with a random column free of diagonal attacks
    where one is found, then queens still attacked swap columns with random
    others whenever that lowers the number of attacks, counted per diagonal,
    so each step costs O(1).  It needs about linear time: n = 100,000 takes
    seconds in pure Python.  The same seed gives the same solution; seed
    None draws one from the system.

    Raises TypeError if n or seed is not an int, ValueError for n = 2 and 3
    (no solution exists) and for n outside 0..PLACEMENT_MAX_N (10**7).

    Parameters
    ----------
    n
        The board's side, 0, 1 or 4 to PLACEMENT_MAX_N.
    seed
        The same seed gives the same solution; None draws one.

    Returns
    -------
    Board
        A solution drawn at random (the same one for the same seed): a tuple.

    Raises
    ------
    TypeError, ValueError
        As construct() does, and TypeError for a seed that is not an int.

    Examples
    --------
    >>> p = random_solution(50, seed=1)
    >>> len(p), sorted(p) == list(range(50))
    (50, True)
    >>> random_solution(50, seed=1) == p
    True
    """
    n = check_solvable(n)
    if seed is not None:
        seed = as_int(seed, "seed")
    import random  # here: importing nqueens stays quick

    rng = random.Random(seed)
    if n <= _LIST_MAX_N:
        return tuple.__new__(Board, rng.choice(list(solutions(n))))
    while True:  # a start that gets stuck is abandoned for a fresh one
        found = _min_conflicts(n, rng)
        if found is not None:
            return tuple.__new__(Board, found)  # a solution: no check needed


def _min_conflicts(n: int, rng: random.Random) -> tuple[int, ...] | None:
    column = list(range(n))
    rng.shuffle(column)
    # queens on each diagonal (row - col + n - 1) and anti-diagonal (row + col)
    down = [0] * (2 * n - 1)
    up = [0] * (2 * n - 1)
    randrange = rng.randrange
    # Build the start: row i picks among the columns not yet used (the tail
    # of the permutation) one that no earlier queen attacks diagonally.
    for i in range(n):
        for _ in range(_TRIES_PER_ROW):
            j = randrange(i, n)
            c = column[j]
            if not down[i - c + n - 1] and not up[i + c]:
                break
        column[i], column[j] = column[j], column[i]
        down[i - c + n - 1] += 1
        up[i + c] += 1

    def attacks(i: int) -> int:
        c = column[i]
        return down[i - c + n - 1] + up[i + c] - 2

    def move(i: int, c: int, step: int) -> None:
        down[i - c + n - 1] += step
        up[i + c] += step

    attacked = [i for i in range(n) if attacks(i)]
    # swaps before the start is abandoned: a start stuck in a local minimum rarely
    # leaves it, and a fresh one costs only O(n), so a short leash finds a solution
    # sooner than a long one, most of all on the small boards that get stuck most
    budget = 4 * n + 100
    while attacked:
        i = attacked.pop()
        while attacks(i) and budget:
            budget -= 1
            j = randrange(n)
            if j == i:
                continue
            before = attacks(i) + attacks(j)
            ci, cj = column[i], column[j]
            move(i, ci, -1)
            move(j, cj, -1)
            move(i, cj, 1)
            move(j, ci, 1)
            column[i], column[j] = cj, ci
            if attacks(i) + attacks(j) < before:
                if attacks(j):
                    attacked.append(j)
                continue
            # no better: swap back
            move(i, cj, -1)
            move(j, ci, -1)
            move(i, ci, 1)
            move(j, cj, 1)
            column[i], column[j] = ci, cj
        if not budget:
            return None
    if max(down) > 1 or max(up) > 1:  # cannot happen; never return a wrong answer
        return None
    return tuple(column)
