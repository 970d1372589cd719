"""solutions(): every placement, produced lazily by the core in chunks."""

from __future__ import annotations

import struct
from collections.abc import Iterator

from . import _select
from ._validate import check_bool, check_limit, check_n

# Placements fetched from the core per call, and squares searched per call
# at most, so that a long gap between solutions still returns to Python
# (and to Ctrl-C) often.
_CHUNK = 4096
_NODES_PER_CALL = 1 << 22


def solutions(
    n: int, *, unique: bool = False, limit: int | None = None
) -> Iterator[tuple[int, ...]]:
    """Yield every solution of the n-queens problem, in lexicographic order.

    A solution is a placement: a tuple of n column indices, one per row,
    0-based.  ``unique=True`` yields one representative of each symmetry
    class (rotations and reflections): the lexicographically smallest of its
    8 images.  ``limit`` stops after that many placements.  Solutions are
    produced lazily, a chunk at a time, so memory stays flat however many
    there are.  Arguments are checked at the call, before any search.

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
    return _generate(n, unique, limit)


def _generate(n: int, unique: bool, limit: int | None) -> Iterator[tuple[int, ...]]:
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
            yield from [()] * found
            continue
        # one C loop turns the chunk into tuples of ints
        yield from unpack(memoryview(buffer)[: found * n])
