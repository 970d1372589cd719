"""The classic n-queens solvers, in plain Python: slow, simple, independent.

Each one is a technique that people learn the problem with, written afresh
from the ideas of five teaching articles (Chinese blog posts with Java and
C/C++ code: column arrays, diagonal flags, iterative backtracking,
permutations, candidate lists, BFS, 2-D and 1-D boards, bitmasks).  They serve as the
oracle for the fast core, whose bugs a different algorithm will not share,
and as the pure-Python side of the benchmarks.

Every solver is a function ``name(n)`` returning an iterator of placements
(a tuple of column indices, one per row, 0-based).  It checks n at the call,
exactly as ``nqueens.count`` does.  ``SOLVERS`` lists them from the most
naive to the bitmask, the order in which they are taught.

>>> from nqueens.reference import SOLVERS
>>> sum(1 for _ in SOLVERS["diagonal_flags"](6))
4
>>> next(SOLVERS["bitmask"](8))
(0, 4, 7, 5, 2, 6, 1, 3)
"""

from __future__ import annotations

import functools
import itertools
import time
from collections import deque
from collections.abc import Iterator
from typing import Callable, NamedTuple

from ._validate import check_n

Placement = tuple[int, ...]
Solver = Callable[[int], Iterator[Placement]]


class SolverInfo(NamedTuple):
    """What ``nqueens solvers`` says of a solver."""

    speed: str
    """Rough speed class: how the work grows and where it stops being quick."""
    quick_n: int
    """The largest n it counts in under a second on one core of an AMD EPYC."""
    lexicographic: bool = True
    """Whether it yields the solutions in lexicographic order."""


SOLVERS: dict[str, Solver] = {}
"""Name -> solver, from the most naive technique to the bitmask."""

INFO: dict[str, SolverInfo] = {}


def _solver(speed: str, quick_n: int, lexicographic: bool = True) -> Callable[[Solver], Solver]:
    # register a solver, and check n at the call rather than at the first next()
    def register(generate: Solver) -> Solver:
        @functools.wraps(generate)
        def solver(n: int) -> Iterator[Placement]:
            return generate(check_n(n))

        SOLVERS[generate.__name__] = solver
        INFO[generate.__name__] = SolverInfo(speed, quick_n, lexicographic)
        return solver

    return register


def _no_diagonal_attack(placement: Placement) -> bool:
    return all(
        abs(placement[i] - placement[j]) != j - i
        for i in range(len(placement))
        for j in range(i + 1, len(placement))
    )


@_solver("n! permutations, each checked in O(n^2)", 9)
def permutations(n: int) -> Iterator[Placement]:
    """Every permutation of the columns, each checked for diagonal attacks afterwards.

    A permutation already puts one queen in each row and each column, so only
    the diagonals are left to check, pair by pair.  Cost: n! permutations
    times n^2 pairs, with no pruning at all.  Article 003, first program.
    Yields in lexicographic order (itertools.permutations is lexicographic).
    """
    for perm in itertools.permutations(range(n)):
        if _no_diagonal_attack(perm):
            yield perm


@_solver("backtracking, each square checked against every earlier row in O(n)", 10)
def column_check(n: int) -> Iterator[Placement]:
    """Recursive backtracking over a column array, checking every earlier row.

    column[r] is the column of row r's queen.  A new queen at (r, c) is safe
    when no earlier row i has column[i] == c or |i - r| == |column[i] - c|.
    Cost: O(n) per square tried, over the backtracking tree.  Article 000,
    and the recursive program of article 002.  Yields in lexicographic order.
    """
    column = [0] * n

    def safe(row: int, col: int) -> bool:
        return all(column[i] != col and abs(i - row) != abs(column[i] - col) for i in range(row))

    def place(row: int) -> Iterator[Placement]:
        if row == n:
            yield tuple(column)
            return
        for col in range(n):
            if safe(row, col):
                column[row] = col
                yield from place(row + 1)

    yield from place(0)


@_solver("backtracking without recursion, O(n) check per square", 10)
def iterative(n: int) -> Iterator[Placement]:
    """Non-recursive backtracking with a row pointer that advances and retreats.

    The current row's queen moves right until it is safe; then the pointer
    advances to the next row, starting left of column 0.  When a queen runs
    off the board the pointer retreats to the row above, whose queen moves
    on.  A complete placement is yielded and its last queen moves on.
    Cost: as ``column_check``, with an explicit loop instead of the call
    stack.  Article 002, non-recursive program.  Yields in lexicographic
    order.
    """
    column = [-1] * n
    row = 0
    while 0 <= row < n:
        column[row] += 1
        while column[row] < n and not all(
            column[i] != column[row] and row - i != abs(column[i] - column[row]) for i in range(row)
        ):
            column[row] += 1
        if column[row] == n:  # this row is exhausted: retreat
            column[row] = -1
            row -= 1
        elif row == n - 1:
            yield tuple(column)
        else:
            row += 1
    if n == 0:
        yield ()


@_solver("permutations pruned as soon as a queen is attacked, O(n) check", 11, False)
def pruned_permutations(n: int) -> Iterator[Placement]:
    """Permutations built by swapping, abandoned as soon as the newest queen is attacked.

    The columns start as 0..n-1; row r swaps in each column still unused at
    positions r..n-1 and keeps it only if no earlier queen shares its
    diagonal, so whole subtrees of permutations are never generated.  Cost:
    O(n) per square tried.  Article 003, second program.  The swaps make the
    order not lexicographic.
    """
    columns = list(range(n))

    def permute(row: int) -> Iterator[Placement]:
        if row == n:
            yield tuple(columns)
            return
        for k in range(row, n):
            candidate = columns[k]
            if any(abs(columns[i] - candidate) == row - i for i in range(row)):
                continue
            columns[row], columns[k] = columns[k], columns[row]
            yield from permute(row + 1)
            columns[row], columns[k] = columns[k], columns[row]

    yield from permute(0)


@_solver("backtracking over a list of legal candidates per row, O(n^2) per row", 10)
def candidates(n: int) -> Iterator[Placement]:
    """Candidate-list backtracking: build the next row's legal columns, then recurse.

    For each partial placement, every column of the next row is tested
    against all placed queens to make the list of candidates; the search
    then tries each candidate in turn.  Cost: O(n^2) to build each list.
    Article 003, third program.  Yields in lexicographic order.
    """

    def legal(placed: list[int]) -> list[int]:
        row = len(placed)
        return [
            col
            for col in range(n)
            if all(c != col and abs(c - col) != row - i for i, c in enumerate(placed))
        ]

    def extend(placed: list[int]) -> Iterator[Placement]:
        if len(placed) == n:
            yield tuple(placed)
            return
        for col in legal(placed):
            placed.append(col)
            yield from extend(placed)
            placed.pop()

    yield from extend([])


@_solver("breadth first: every partial placement of a row held at once", 10)
def breadth_first(n: int) -> Iterator[Placement]:
    """Breadth-first search, level by level over the partial placements.

    Each level holds every safe placement of the first r rows; the next level
    extends each of them by one safe queen.  The solutions are the last
    level.  Memory: the widest level, which for n = 12 is 222,720 partial
    placements (tens of MB) and grows about five times per extra n, where
    depth-first search needs O(n).  Article 003, section 4.  Yields in
    lexicographic order.
    """
    level: deque[Placement] = deque([()])
    for row in range(n):
        following: deque[Placement] = deque()
        for placed in level:
            for col in range(n):
                if all(c != col and abs(c - col) != row - i for i, c in enumerate(placed)):
                    following.append((*placed, col))
        level = following
    yield from level


@_solver("backtracking on an n x n board, checking three lines upward", 11)
def board_2d(n: int) -> Iterator[Placement]:
    """Backtracking over a 2-D board array, checking the column and both diagonals upward.

    board[r][c] is 1 where a queen stands.  A square is safe when the squares
    above it in its column, up-left and up-right diagonals are all empty.
    Cost: O(n) per square tried, plus O(n) to read a solution off the board.
    Article 004, first program.  Yields in lexicographic order.
    """
    board = [[0] * n for _ in range(n)]

    def safe(row: int, col: int) -> bool:
        for up in range(1, row + 1):
            above = board[row - up]
            if above[col] or (col - up >= 0 and above[col - up]):
                return False
            if col + up < n and above[col + up]:
                return False
        return True

    def place(row: int) -> Iterator[Placement]:
        if row == n:
            yield tuple(line.index(1) for line in board)
            return
        for col in range(n):
            if safe(row, col):
                board[row][col] = 1
                yield from place(row + 1)
                board[row][col] = 0

    yield from place(0)


@_solver("backtracking on a column array, checking three lines upward", 10)
def board_1d(n: int) -> Iterator[Placement]:
    """The same upward check over a 1-D array of columns instead of a board.

    column[r] is row r's queen; a square (row, col) is attacked by row
    row - d when that queen stands at col, col - d or col + d.  Cost: O(n)
    per square tried, with an n-cell array for memory.  Article 004, second
    program.  Yields in lexicographic order.
    """
    column = [0] * n

    def place(row: int) -> Iterator[Placement]:
        if row == n:
            yield tuple(column)
            return
        for col in range(n):
            if all(column[row - d] not in (col, col - d, col + d) for d in range(1, row + 1)):
                column[row] = col
                yield from place(row + 1)

    yield from place(0)


@_solver("backtracking with column and diagonal flags: O(1) check per square", 12)
def diagonal_flags(n: int) -> Iterator[Placement]:
    """Depth-first search with a used-column array and two diagonal flag arrays.

    A square (r, c) lies on the diagonal r - c + n - 1 running down-right
    and on the anti-diagonal r + c (2n - 1 of each); flags for columns and
    both diagonals make each check O(1).  Cost: O(1) per square tried, over
    the backtracking tree.  Article 001.  Yields in
    lexicographic order.
    """
    used = [False] * n
    down = [False] * (2 * n)
    up = [False] * (2 * n)
    column = [0] * n

    def place(row: int) -> Iterator[Placement]:
        if row == n:
            yield tuple(column)
            return
        for col in range(n):
            d, a = row - col + n - 1, row + col
            if not (used[col] or down[d] or up[a]):
                used[col] = down[d] = up[a] = True
                column[row] = col
                yield from place(row + 1)
                used[col] = down[d] = up[a] = False

    yield from place(0)


@_solver("backtracking with a precomputed attack-mask table, O(row) per row", 12)
def attack_table(n: int) -> Iterator[Placement]:
    """Bit masks of attacked squares looked up in a table built once.

    table[c][d] is the mask of the squares that a queen in column c attacks
    d rows further down (its column and the two squares d columns to each
    side).  A row's attacked mask is the OR of table[column[i]][row - i] over
    the earlier rows, and a square is free when its bit is clear.  Cost:
    O(n^2) for the table, then O(row) per row and O(1) per square tried.
    Article 004, last program.  Yields in lexicographic order.
    """
    full = (1 << n) - 1
    table = [
        [((1 << c) | (1 << c << d) | (1 << c >> d)) & full for d in range(n)] for c in range(n)
    ]
    column = [0] * n

    def place(row: int) -> Iterator[Placement]:
        if row == n:
            yield tuple(column)
            return
        attacked = 0
        for i in range(row):
            attacked |= table[column[i]][row - i]
        for col in range(n):
            if not attacked >> col & 1:
                column[row] = col
                yield from place(row + 1)

    yield from place(0)


@_solver("row-by-row bitmask backtracking: the fastest in pure Python", 12)
def bitmask(n: int) -> Iterator[Placement]:
    """Row-by-row bitmask backtracking: the core's technique in plain Python.

    cols, ld and rd hold the columns and the two diagonal directions that
    the placed queens attack in the next row (the diagonal masks shift by one
    column per row); the free squares are the rest, and the lowest free bit
    is taken each time.  Cost: a few integer operations per square tried.
    Article 004, last section; the same algorithm as the compiled core, but
    written independently of it.  Yields in lexicographic order.
    """
    full = (1 << n) - 1
    column = [0] * n

    def place(row: int, cols: int, ld: int, rd: int) -> Iterator[Placement]:
        if row == n:
            yield tuple(column)
            return
        free = full & ~(cols | ld | rd)
        while free:
            bit = free & -free
            free ^= bit
            column[row] = bit.bit_length() - 1
            yield from place(row + 1, cols | bit, (ld | bit) << 1 & full, (rd | bit) >> 1)

    yield from place(0, 0, 0, 0)


def bitmask_completions(n: int, placed: dict[int, int]) -> Iterator[Placement]:
    """The bitmask search extended to the completion problem: the solutions that keep
    the queens of `placed` (row -> column), in lexicographic order.

    A placed row offers only its queen's square, and only if no queen above
    attacks it; the other rows search as bitmask() does.  The pure-Python
    reference for count(n, placed=...) and solutions(n, placed=...), written
    apart from the core (which also rules out, ahead, the squares the placed
    queens below attack).  Placed queens are not checked: two that attack
    each other simply leave no completion.

    >>> sum(1 for _ in bitmask_completions(8, {0: 0}))
    4
    """
    n = check_n(n)
    full = (1 << n) - 1
    column = [0] * n

    def place(row: int, cols: int, ld: int, rd: int) -> Iterator[Placement]:
        if row == n:
            yield tuple(column)
            return
        free = full & ~(cols | ld | rd)
        if row in placed:
            free &= 1 << placed[row]
        while free:
            bit = free & -free
            free ^= bit
            column[row] = bit.bit_length() - 1
            yield from place(row + 1, cols | bit, (ld | bit) << 1 & full, (rd | bit) >> 1)

    yield from place(0, 0, 0, 0)


def least_seconds(name: str, n: int, budget: float = 0.5) -> float:
    """About the least time, in seconds, that solver `name` takes to list every
    solution of the n board: measured where that takes a fraction of `budget`,
    beyond that grown from the largest board measured by its last growth factor
    from one board to the next (which only rises with n for these searches).

    >>> least_seconds("bitmask", 6) < 1.0
    True
    """
    solver = SOLVERS[name]
    n = check_n(n)
    took, growth, spent = 0.0, 1.0, 0.0
    for m in range(min(n, 4), n + 1):
        if m > 4 and spent + took * growth > budget:  # the next board would pass the budget
            return took * growth ** (n - m + 1)
        clock = time.perf_counter()
        for _ in solver(m):
            pass
        last, took = took, time.perf_counter() - clock
        spent += took
        if last > 1e-3:  # (below, the clock and the call's own cost blur the factor)
            growth = took / last
    return took
