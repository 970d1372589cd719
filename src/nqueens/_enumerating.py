"""solutions(): every placement, from the core in chunks of tuples."""

from __future__ import annotations

import itertools
import struct
from collections.abc import Iterable, Iterator

from . import _select
from ._validate import check_bool, check_limit, check_n

# Placements fetched from the core per call, and squares searched per call
# at most, so that a long gap between solutions still returns to Python
# (and to Ctrl-C) often.
_CHUNK = 4096
_NODES_PER_CALL = 1 << 22
# Boards of 2 to GATHER_MAX_N (15) are enumerated whole by the symmetric
# search of count() and sorted, then handed out as tuples this many at a
# time: 8 bytes a solution (18 MB at n = 15, twice that while sorting), and
# about 3 times faster than the walk.  A limit up to _WALK_LIMIT takes the
# lazy walk instead, which stops as soon as it has them.
_GATHERED_CHUNK = 1024
_WALK_LIMIT = 50_000


def solutions(
    n: int, *, unique: bool = False, limit: int | None = None
) -> Iterator[tuple[int, ...]]:
    """Yield every solution of the n-queens problem, in lexicographic order.

    A solution is a placement: a tuple of n column indices, one per row,
    0-based.  ``unique=True`` yields one representative of each symmetry
    class (rotations and reflections): the lexicographically smallest of its
    8 images.  ``limit`` stops after that many placements.  Arguments are
    checked at the call, before any search.

    Boards up to 15 are enumerated whole, in C, at the first ``next()`` (the
    symmetric search of ``count()``, then a sort: 8 bytes a solution, 18 MB
    for the 2,279,184 of n = 15); larger boards, and a ``limit`` of up to
    50,000, are walked lazily in lexicographic order, so memory stays flat
    however many solutions there are.

    Lexicographic order has a cost on large boards: the first solution is
    the one whose first rows are as far left as possible, and the search
    must rule out every placement before it.  It comes within a second up
    to n = 32, takes seconds from n = 35 and grows quickly beyond (the walk
    stays interruptible with Ctrl-C).  For one solution of a large board,
    use ``construct(n)`` (a formula, instant for millions of rows) or
    ``random_solution(n)`` (local search, linear time).

    >>> next(solutions(8))
    (0, 4, 7, 5, 2, 6, 1, 3)
    >>> list(solutions(6))
    [(1, 3, 5, 0, 2, 4), (2, 5, 1, 4, 0, 3), (3, 0, 4, 1, 5, 2), (4, 2, 0, 5, 3, 1)]
    >>> list(solutions(6, unique=True))
    [(1, 3, 5, 0, 2, 4)]
    >>> len(list(solutions(8, limit=5)))
    5
    """
    n = check_n(n)
    limit = check_limit(limit)
    unique = check_bool(unique, "unique")
    core = _select.core
    chunks: Iterator[Iterable[tuple[int, ...]]]
    if 2 <= n <= core.GATHER_MAX_N and (limit is None or limit > _WALK_LIMIT):
        chunks = _gathered(n, unique, limit)
    else:
        chunks = _walked(n, unique, limit)
    # chain hands out each chunk's tuples without a Python frame per item
    return itertools.chain.from_iterable(chunks)


def _gathered(n: int, unique: bool, limit: int | None) -> Iterator[list[tuple[int, ...]]]:
    table = _select.core.Gathered(n, unique)
    end = table.size if limit is None else min(limit, table.size)
    for start in range(0, end, _GATHERED_CHUNK):
        yield table.tuples(start, min(start + _GATHERED_CHUNK, end))


def _walked(n: int, unique: bool, limit: int | None) -> Iterator[Iterable[tuple[int, ...]]]:
    walk = _select.core.Enumerator(n, (), unique)
    buffer = bytearray(n * _CHUNK)
    unpack = struct.Struct(f"{n}B").iter_unpack
    left = limit
    while not walk.done and left != 0:
        want = _CHUNK if left is None else min(_CHUNK, left)
        found = walk.fill(buffer, want, _NODES_PER_CALL)
        if left is not None:
            left -= found
        if n == 0:
            yield [()] * found
            continue
        # one C loop turns the chunk into tuples of ints; chain empties it
        # before the next fill overwrites the buffer
        yield unpack(memoryview(buffer)[: found * n])
