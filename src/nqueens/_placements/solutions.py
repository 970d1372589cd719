"""solutions(): every placement, from the core's iterator over a gathered board or
in chunks of tuples from the walk."""

from __future__ import annotations

import functools
import itertools
import struct
import threading
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from .. import _select
from .._validate import available_cores, check_bool, check_limit, check_n
from .completion import check_completion_n, check_placed, walk

Queens = tuple[int, ...]

# Placements fetched from the core per call, and squares searched per call
# at most, so that a long gap between solutions still returns to Python
# (and to Ctrl-C) often.
_CHUNK = 4096
_NODES_PER_CALL = 1 << 22
# Boards of 2 to GATHER_MAX_N (15) are enumerated whole by the symmetric
# search of count() and sorted, then handed out by the core's iterator, a
# tuple made at each step: 8 bytes a solution kept (half of them: the rest
# are read mirrored; twice that while sorting and merging), faster than the
# walk (BENCHMARKS.md).  A limit up to _WALK_LIMIT takes the lazy walk
# instead, which stops as soon as it has them.
_WALK_LIMIT = 50_000
# From this size the compiled core's gathering is cut into parts (groups of
# borders taken in turns) that threads gather at once, one a core, up to this many;
# the parts are merged after.  Below, one thread gathers faster than threads start.
_GATHER_PARTS_FROM = 12
_GATHER_MOST_PARTS = 8


def solutions(
    n: int,
    *,
    unique: bool = False,
    limit: int | None = None,
    placed: Mapping[int, int] | Iterable[tuple[int, int]] | None = None,
) -> Iterator[tuple[int, ...]]:
    """Yield every solution of the n-queens problem, in lexicographic order.

    A solution is a placement: a tuple of n column indices, one per row, 0-based.
    Memory stays flat however many there are.  On large boards the first solution in
    this order takes long to reach (seconds from n = 35); ``construct(n)`` and
    ``random_solution(n)`` give one solution of any size at once.

    Parameters
    ----------
    n
        The board's side (up to MAX_N; up to 1000 with placed queens).
    unique
        One placement per class under rotation and reflection, the smallest of its
        eight images.
    limit
        Stop after this many placements (None: all).
    placed
        Queens already on the board, {row: column} or (row, column) pairs, 0-based:
        list only the solutions that keep them.

    Returns
    -------
    Iterator[tuple[int, ...]]
        Placements, a column per row, in lexicographic order.

    Raises
    ------
    TypeError, ValueError
        Arguments of the wrong type or out of range, checked at the call.

    Examples
    --------
    >>> next(solutions(8))
    (0, 4, 7, 5, 2, 6, 1, 3)
    >>> list(solutions(6, unique=True))
    [(1, 3, 5, 0, 2, 4)]
    >>> len(list(solutions(8, limit=5)))
    5
    >>> next(solutions(8, placed={0: 7, 7: 3}))
    (7, 2, 0, 5, 1, 4, 6, 3)
    """
    limit = check_limit(limit)
    unique = check_bool(unique, "unique")
    if placed is not None:
        size = check_completion_n(n)
        if unique:
            raise ValueError(
                "unique=True cannot go with placed queens: the symmetries of the board do not "
                "keep them in place"
            )
        rows, cols = check_placed(size, placed)
        if size > _select.bitsolver.MAX_N:
            return _Shared(itertools.islice(walk(size, rows, cols), limit))
        return _Shared(itertools.chain.from_iterable(_walked(size, False, limit, rows, cols)))
    n = check_n(n)
    core = _select.bitsolver
    if 2 <= n <= core.GATHER_MAX_N and (limit is None or limit > _WALK_LIMIT):
        # the core's iterator, gathering at the first next(), then making each
        # tuple as the loop asks for it (a chain in front made the loop over
        # the tuples about 15% slower)
        placements: Iterator[tuple[int, ...]] = core.Placements(
            functools.partial(gather, n, unique), limit
        )
        return placements
    # chain hands out each chunk's tuples without a Python frame per item
    return _Shared(itertools.chain.from_iterable(_walked(n, unique, limit)))


class _Shared(Iterator[tuple[int, ...]]):
    """A walk's iterator that threads may share: one next() at a time.  The walk
    releases the GIL as it fills a chunk, and a second thread that stepped in then
    would stop the chain's generator for good, and every thread with it, silently.
    (The core's gathered Placements need no lock: a second thread that asks while
    the first gathers meets a ValueError; after, each next() holds the GIL.)"""

    __slots__ = ("_items", "_lock")

    def __init__(self, items: Iterator[tuple[int, ...]]) -> None:
        self._items = items
        self._lock = threading.Lock()

    def __iter__(self) -> _Shared:
        return self

    def __next__(self) -> tuple[int, ...]:
        with self._lock:
            return next(self._items)


def gather(n: int, unique: bool) -> Any:
    """The core's Gathered(n, unique), whole: from _GATHER_PARTS_FROM on the
    compiled core, its parts gathered by threads at once (the core drops the
    GIL) and merged here.

    >>> gather(12, False).size
    14200
    """
    core = _select.bitsolver
    parts = 1
    if n >= _GATHER_PARTS_FROM and _select.IMPLEMENTATION == "cython":
        parts = min(available_cores(), _GATHER_MOST_PARTS)
    if parts == 1:
        return core.Gathered(n, unique)
    pieces: list[Any] = [None] * parts

    def work(part: int) -> None:
        try:
            pieces[part] = core.Gathered(n, unique, part, parts)
        except BaseException as exc:  # raised below, on the caller's thread
            pieces[part] = exc

    helpers = [
        threading.Thread(target=work, args=(part,), name="nqueens-gather", daemon=True)
        for part in range(1, parts)
    ]
    for helper in helpers:
        helper.start()
    try:
        work(0)
    finally:
        for helper in helpers:  # each ends within its part's milliseconds
            helper.join()
    for piece in pieces:
        if isinstance(piece, BaseException):
            raise piece
    table = pieces[0]
    for piece in pieces[1:]:
        table.take(piece)
    return table


def _walked(
    n: int, unique: bool, limit: int | None, rows: Queens = (), cols: Queens = ()
) -> Iterator[Iterable[tuple[int, ...]]]:
    walker = _select.bitsolver.Enumerator(n, (), unique, rows, cols)
    buffer = bytearray(n * _CHUNK)
    unpack = struct.Struct(f"{n}B").iter_unpack
    left = limit
    while not walker.done and left != 0:
        want = _CHUNK if left is None else min(_CHUNK, left)
        found = walker.fill(buffer, want, _NODES_PER_CALL)
        if left is not None:
            left -= found
        if n == 0:
            yield [()] * found
            continue
        # one C loop turns the chunk into tuples of ints; chain empties it
        # before the next fill overwrites the buffer
        yield unpack(memoryview(buffer)[: found * n])
