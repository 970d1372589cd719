"""is_solution() and conflicts(): check a placement and explain what attacks what."""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from .._validate import as_int

KINDS = ("column", "diagonal", "anti-diagonal")


class Conflict(NamedTuple):
    """Two queens that attack each other: rows row1 < row2, and the line they share.

    kind is "column" (the same column), "diagonal" (the same row - column:
    the line running down to the right) or "anti-diagonal" (the same
    row + column: the line running down to the left).
    """

    row1: int
    row2: int
    kind: str


def columns_of(placement: Sequence[int]) -> list[int]:
    """The placement as a list of ints on its own n x n board, or raise.

    TypeError for a non-sequence or a non-int entry (bool included), and
    ValueError naming the row for a column outside 0..n-1.
    """
    if isinstance(placement, (str, bytes)) or not hasattr(placement, "__len__"):
        raise TypeError(f"placement must be a sequence of ints, not {type(placement).__name__}")
    columns = [as_int(c, f"placement[{row}]") for row, c in enumerate(placement)]
    n = len(columns)
    for row, c in enumerate(columns):
        if not 0 <= c < n:
            raise ValueError(
                f"placement[{row}] = {c} is off the board: columns run from 0 to {n - 1}"
            )
    return columns


def _shared_lines(columns: list[int]) -> Iterator[tuple[str, list[int]]]:
    # Each line (column, diagonal, anti-diagonal) that holds two queens or
    # more, with its rows in order: one pass and a dict per kind, so O(n).
    keys = {
        "column": columns,
        "diagonal": [row - c for row, c in enumerate(columns)],
        "anti-diagonal": [row + c for row, c in enumerate(columns)],
    }
    for kind, line_of_row in keys.items():
        if len(set(line_of_row)) == len(line_of_row):
            continue  # the common case, at C speed
        lines: dict[int, list[int]] = {}
        for row, line in enumerate(line_of_row):
            lines.setdefault(line, []).append(row)
        for rows in lines.values():
            if len(rows) > 1:
                yield kind, rows


def is_solution(placement: Sequence[int]) -> bool:
    """Return whether no two queens of a placement attack each other.

    A placement is a sequence of n column indices, one per row, 0-based, on
    an n x n board: any sequence of ints (tuple, list, array).  Raises
    TypeError for a non-int entry and ValueError for a column off the board.

    Parameters
    ----------
    placement
        A column per row, 0-based: any sequence of ints.

    Returns
    -------
    bool
        True where no two queens attack each other.

    Raises
    ------
    TypeError
        An entry that is not an int.
    ValueError
        A column off the board.

    Examples
    --------
    >>> is_solution((1, 3, 0, 2))
    True
    >>> is_solution([0, 2, 1, 3])
    False
    """
    return next(_shared_lines(columns_of(placement)), None) is None


def conflicts(placement: Sequence[int], *, limit: int | None = None) -> list[Conflict]:
    """Return the pairs of queens that attack each other, sorted by rows then kind.

    ``limit`` stops after that many pairs (the first in that order): finding
    them takes O(n + limit) time and memory, however many pairs there are.
    Without it every pair is listed, which for k queens on one line is
    k(k-1)/2 pairs; attacking_pairs() counts them in O(n) without listing.
    Arguments are checked as by is_solution().

    >>> conflicts((1, 3, 0, 2))
    []
    >>> for pair in conflicts((0, 1, 3, 3)):
    ...     print(pair)
    Conflict(row1=0, row2=1, kind='diagonal')
    Conflict(row1=0, row2=3, kind='diagonal')
    Conflict(row1=1, row2=3, kind='diagonal')
    Conflict(row1=2, row2=3, kind='column')
    >>> conflicts([0] * 20000, limit=2)
    [Conflict(row1=0, row2=1, kind='column'), Conflict(row1=0, row2=2, kind='column')]
    """
    columns = columns_of(placement)
    if limit is not None:
        limit = as_int(limit, "limit")
        if limit < 0:
            raise ValueError(f"limit must be None or an int >= 0, got {limit}")
    return list(itertools.islice(_pairs_in_order(columns), limit))


def attacking_pairs(placement: Sequence[int]) -> int:
    """The number of pairs of queens that attack each other, in O(n).

    >>> attacking_pairs([0] * 20000)
    199990000
    """
    return sum(len(rows) * (len(rows) - 1) // 2 for _, rows in _shared_lines(columns_of(placement)))


def _pairs_in_order(columns: list[int]) -> Iterator[Conflict]:
    # Row by row, the later rows on each of its three lines, merged: the
    # pairs come out sorted without being listed first.
    after: dict[int, list[tuple[list[int], int, int]]] = {}
    for kind, rows in _shared_lines(columns):
        rank = KINDS.index(kind)
        for i, row in enumerate(rows[:-1]):
            after.setdefault(row, []).append((rows, i + 1, rank))
    for row1 in sorted(after):
        tails = [_tail(rows, start, rank) for rows, start, rank in after[row1]]
        for row2, rank in heapq.merge(*tails):
            yield Conflict(row1, row2, KINDS[rank])


def _tail(rows: list[int], start: int, rank: int) -> Iterator[tuple[int, int]]:
    for j in range(start, len(rows)):
        yield rows[j], rank
