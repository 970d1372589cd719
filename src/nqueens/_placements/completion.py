"""The n-queens completion problem: the solutions that keep queens already placed.

Counting and listing completions is NP-complete in general (Gent, Jefferson
and Nightingale, "Complexity of n-Queens Completion", JAIR 2017): some
instances are answered at once, others take as long as any search.  The
placed queens are checked here, once; count() hands them to the core as a
subproblem (split into subproblems like a plain count), and solutions() to the
core's walk, whose rows then allow only the squares they leave free.  Boards
beyond MAX_N are walked in Python on integers of any size.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .._validate import as_int

COMPLETION_MAX_N = 1000
"""The largest board solutions(placed=...) walks (in Python beyond MAX_N)."""

Queens = tuple[tuple[int, ...], tuple[int, ...]]


def check_completion_n(n: object) -> int:
    """n as an int from 0 to COMPLETION_MAX_N, or TypeError / ValueError."""
    size = as_int(n, "n")
    if not 0 <= size <= COMPLETION_MAX_N:
        raise ValueError(
            f"n must be between 0 and {COMPLETION_MAX_N} with placed queens, got {size}"
        )
    return size


def check_placed(n: int, placed: Any) -> Queens:
    """(rows, cols) of the placed queens, sorted by row, or TypeError / ValueError
    naming the squares: off the board, two in a row, or attacking each other."""
    if isinstance(placed, Mapping):
        pairs = list(placed.items())
    elif isinstance(placed, (str, bytes)) or not hasattr(placed, "__iter__"):
        raise TypeError(
            "placed must be a mapping row -> column or an iterable of (row, column) pairs, "
            f"not {type(placed).__name__}"
        )
    else:
        pairs = []
        for pair in placed:
            if isinstance(pair, (str, bytes)) or not hasattr(pair, "__len__") or len(pair) != 2:
                raise TypeError(f"placed must hold (row, column) pairs, got {pair!r}")
            pairs.append(tuple(pair))
    squares = [(as_int(r, "a placed row"), as_int(c, "a placed column")) for r, c in pairs]
    for r, c in squares:
        if not (0 <= r < n and 0 <= c < n):
            raise ValueError(f"placed queen at ({r}, {c}) is off the {n} x {n} board")
    squares.sort()
    for (r1, c1), (r2, c2) in zip(squares, squares[1:]):
        if r1 == r2:
            raise ValueError(f"placed queens at ({r1}, {c1}) and ({r2}, {c2}) share row {r1}")
    rows = tuple(r for r, _ in squares)
    cols = tuple(c for _, c in squares)
    _apart(rows, cols)
    return rows, cols


def _apart(rows: tuple[int, ...], cols: tuple[int, ...]) -> None:
    # the first two queens (by rows) on one line, named in conflicts()'s words
    seen: dict[tuple[str, int], int] = {}
    for r, c in zip(rows, cols):
        for kind, line in _lines_of(r, c):
            if (kind, line) in seen:
                a = seen[kind, line]
                raise ValueError(
                    f"placed queens at ({a}, {dict(zip(rows, cols))[a]}) and ({r}, {c}) "
                    f"attack each other: same {kind}"
                )
            seen[kind, line] = r


def _lines_of(r: int, c: int) -> tuple[tuple[str, int], ...]:
    return (("column", c), ("diagonal", r - c), ("anti-diagonal", r + c))


def walk(n: int, rows: tuple[int, ...], cols: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every completion in lexicographic order, by the row-by-row bitmask search on
    Python integers (any n): each row allows only the squares the placed queens
    leave free.  Pure Python, so Ctrl-C stops it at once."""
    full = (1 << n) - 1
    allowed = [full] * n
    for qr, qc in zip(rows, cols):
        for r in range(n):
            d = r - qr
            if r == qr:
                allowed[r] &= 1 << qc
            else:
                attacked = 1 << qc
                if 0 <= qc + d < n:
                    attacked |= 1 << (qc + d)
                if 0 <= qc - d < n:
                    attacked |= 1 << (qc - d)
                allowed[r] &= ~attacked
    column = [0] * n
    # an explicit stack: boards of hundreds of rows would pass the recursion limit
    stack = [allowed[0]] if n else []
    masks = [(0, 0, 0)]
    if n == 0:
        yield ()
        return
    while stack:
        row = len(stack) - 1
        free = stack[row]
        if not free:
            stack.pop()
            masks.pop()
            continue
        bit = free & -free
        stack[row] = free ^ bit
        column[row] = bit.bit_length() - 1
        taken, ld, rd = masks[row]
        if row + 1 == n:
            yield tuple(column)
            continue
        taken, ld, rd = taken | bit, (ld | bit) << 1 & full, (rd | bit) >> 1
        stack.append(allowed[row + 1] & ~(taken | ld | rd))
        masks.append((taken, ld, rd))
