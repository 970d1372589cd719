from __future__ import annotations

import collections
import itertools
import threading
import tracemalloc

import pytest

import nqueens
from nqueens._oeis import A000170, A002562
from nqueens._placements.solutions import _WALK_LIMIT


@pytest.mark.parametrize("n", range(10))
def test_solutions_are_the_brute_force_list_in_order(core, brute, n):
    assert list(nqueens.solutions(n)) == brute(n)


@pytest.mark.parametrize("n", range(10))
def test_unique_gives_the_smallest_image_of_each_class_in_order(core, brute, canonical, n):
    expected = sorted({canonical(p) for p in brute(n)})
    assert list(nqueens.solutions(n, unique=True)) == expected
    assert len(expected) == A002562[n]


@pytest.mark.parametrize("n", [10, 11])
def test_larger_boards_match_oeis_and_stay_sorted(core, n):
    found = list(nqueens.solutions(n))
    assert len(found) == A000170[n]
    assert found == sorted(found)
    assert all(nqueens.is_solution(p) for p in found)


@pytest.mark.parametrize("limit", [0, 1, 5, 92, 1000])
def test_limit_stops_early(core, limit):
    found = list(nqueens.solutions(8, limit=limit))
    assert found == list(itertools.islice(nqueens.solutions(8), limit))
    assert len(found) == min(limit, 92)


def test_limit_across_chunks(core):
    # more than one chunk of the core's buffer, cut in the middle of one
    found = list(nqueens.solutions(10, limit=700))
    assert found == list(nqueens.solutions(10))[:700]


def test_placements_are_tuples_of_ints(core):
    placement = next(nqueens.solutions(5))
    assert type(placement) is tuple
    assert all(type(c) is int for c in placement)


def test_empty_board_has_one_empty_solution(core):
    assert list(nqueens.solutions(0)) == [()]
    assert list(nqueens.solutions(0, unique=True)) == [()]
    assert list(nqueens.solutions(0, limit=0)) == []


def test_large_board_gives_a_first_solution(core):
    first = next(nqueens.solutions(20))
    assert len(first) == 20 and nqueens.is_solution(first)


@pytest.mark.parametrize("count", [20_000, 200_000])
def test_iterating_partway_keeps_memory_flat(native_core, count):
    tracemalloc.start()
    try:
        it = nqueens.solutions(16)
        for _ in itertools.islice(it, count):
            pass
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # a list of the solutions seen would take tens of MB; the chunk is 64 KiB
    assert peak < 1_000_000


def test_iterating_partway_keeps_memory_flat_on_either_core(core):
    # a limit small enough for the lazy walk
    tracemalloc.start()
    try:
        for _ in nqueens.solutions(12, limit=10_000):
            pass
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000


def test_a_gathered_board_builds_its_tuples_one_at_a_time(native_core):
    # n = 14 is enumerated whole in C (1.5 MB of keys, outside the Python
    # heap); each tuple is made as the loop asks for it
    tracemalloc.start()
    try:
        for _ in itertools.islice(nqueens.solutions(14), 200_000):
            pass
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000


@pytest.mark.parametrize("unique", [False, True])
def test_the_gathered_table_and_the_lazy_walk_agree(core, unique):
    # no limit: boards up to GATHER_MAX_N come from the sorted table; a
    # limit up to _WALK_LIMIT takes the walk
    sizes = range(2, 14) if core.__name__.endswith("_bitsolver") else range(2, 11)
    for n in sizes:
        table = list(nqueens.solutions(n, unique=unique))
        walked = list(nqueens.solutions(n, unique=unique, limit=_WALK_LIMIT))
        assert walked == table[:_WALK_LIMIT]
        assert len(table) == (A002562 if unique else A000170)[n]


@pytest.mark.native
@pytest.mark.parametrize("n", [14, 15])
def test_the_largest_gathered_boards_begin_as_the_walk_and_end_mirrored(n):
    # the first placements against the walk's, and the last one (read from
    # the mirrored half) the mirror image of the first
    gathered = nqueens.solutions(n)
    first = list(itertools.islice(gathered, _WALK_LIMIT))
    assert first == list(nqueens.solutions(n, limit=_WALK_LIMIT))
    (last,) = collections.deque(gathered, maxlen=1)
    assert last == tuple(n - 1 - column for column in first[0])


def test_gathered_tables_match_oeis_up_to_their_largest_board(native_core):
    for n in range(2, native_core.GATHER_MAX_N + 1):
        assert native_core.Gathered(n, False).size == A000170[n]
        assert native_core.Gathered(n, True).size == A002562[n]


def test_gathered_refuses_what_it_cannot_hold(core):
    with pytest.raises(ValueError, match="boards of 2 to"):
        core.Gathered(core.GATHER_MAX_N + 1, False)
    with pytest.raises(ValueError, match="boards of 2 to"):
        core.Gathered(1, False)
    table = core.Gathered(6, False)
    assert list(table.placements(1, 3)) == [(2, 5, 1, 4, 0, 3), (3, 0, 4, 1, 5, 2)]
    for start, stop in [(-1, 2), (3, 2), (0, 5)]:
        with pytest.raises(IndexError):
            table.placements(start, stop)  # at the call, before any next()


def test_gathered_placements_iterate_once_in_order(core):
    table = core.Gathered(6, False)
    placements = table.placements(1, 4)
    assert iter(placements) is placements
    assert next(placements) == (2, 5, 1, 4, 0, 3)
    assert list(placements) == [(3, 0, 4, 1, 5, 2), (4, 2, 0, 5, 3, 1)]
    for _ in range(2):  # exhausted for good
        with pytest.raises(StopIteration):
            next(placements)
    assert list(table.placements(2, 2)) == []
    # two iterators over one table are independent
    first, second = table.placements(0, 4), table.placements(0, 4)
    assert next(first) == next(second) == (1, 3, 5, 0, 2, 4)
    assert list(first) == list(second)


def test_placements_gather_at_the_first_next_and_stop_at_the_limit(core):
    made = []

    def make():
        made.append(1)
        return core.Gathered(6, False)

    placements = core.Placements(make, 3)
    assert made == []  # nothing gathered before the first next()
    assert iter(placements) is placements
    assert list(placements) == list(core.Gathered(6, False).placements(0, 3))
    assert made == [1]
    with pytest.raises(StopIteration):
        next(placements)
    assert made == [1]  # gathered once
    assert len(list(core.Placements(make))) == 4
    assert list(core.Placements(make, 0)) == []
    assert list(core.Placements(make, 10**6)) == list(core.Placements(make))
    assert list(core.Placements()) == []


def test_placements_refuse_bad_arguments_and_tables(core):
    with pytest.raises(TypeError, match="callable"):
        core.Placements("table")
    with pytest.raises(ValueError, match="limit"):
        core.Placements(lambda: core.Gathered(6, False), -1)
    with pytest.raises(TypeError):
        core.Placements(lambda: core.Gathered(6, False), 2.5)
    with pytest.raises(TypeError, match="Gathered"):
        next(core.Placements(lambda: [(0,)]))
    with pytest.raises(ValueError, match="take"):
        next(core.Placements(lambda: core.Gathered(6, False, 0, 2)))

    def fails():
        raise MemoryError

    def reenters():
        return next(placements)

    placements = core.Placements(reenters)
    with pytest.raises(ValueError):  # as a generator: already running
        next(placements)
    placements = core.Placements(fails)
    with pytest.raises(MemoryError):
        next(placements)
    with pytest.raises(StopIteration):  # as a generator: nothing after it raised
        next(placements)


def test_bad_arguments_raise_at_the_call_before_iterating():
    with pytest.raises(TypeError, match="n must be an int"):
        nqueens.solutions("8")
    with pytest.raises(ValueError, match="n must be between 0 and"):
        nqueens.solutions(-1)
    with pytest.raises(ValueError, match="limit must be None or an int >= 0"):
        nqueens.solutions(8, limit=-1)
    with pytest.raises(TypeError, match="limit must be an int"):
        nqueens.solutions(8, limit=2.5)
    with pytest.raises(TypeError, match="unique must be a bool"):
        nqueens.solutions(8, unique="yes")


@pytest.mark.native
@pytest.mark.parametrize("cores", [1, 2, 3])
def test_gather_on_threads_is_the_whole_in_order(monkeypatch, native_core, cores):
    # from _GATHER_PARTS_FROM the compiled core's gathering is cut into a part a core,
    # gathered by threads at once and merged: every solution, once, in order
    from nqueens._placements import solutions as _enumerating

    monkeypatch.setattr(_enumerating, "available_cores", lambda: cores)
    made = []
    real = native_core.Gathered

    def recorded(*args):
        made.append((args, threading.current_thread().name))
        return real(*args)

    monkeypatch.setattr(native_core, "Gathered", recorded)
    for n, unique in [(11, False), (12, False), (13, False), (12, True)]:
        whole = real(n, unique)  # one part (the walk checks it: above)
        made.clear()
        table = _enumerating.gather(n, unique)
        assert list(table.placements(0, table.size)) == list(whole.placements(0, whole.size))
        assert table.size == (A002562 if unique else A000170)[n]
        if n < _enumerating._GATHER_PARTS_FROM or cores == 1:
            assert made == [((n, unique), "MainThread")]
        else:
            parts = [(n, unique, k, cores) for k in range(cores)]
            assert sorted(args for args, _ in made) == parts
            assert sum(name == "nqueens-gather" for _, name in made) == cores - 1


@pytest.mark.native
def test_a_part_that_fails_on_its_thread_fails_the_gathering(monkeypatch, native_core):
    from nqueens._placements import solutions as _enumerating

    monkeypatch.setattr(_enumerating, "available_cores", lambda: 2)
    real = native_core.Gathered

    def short_of_memory(n, unique, part=0, parts=1):
        if part == 1:
            raise MemoryError
        return real(n, unique, part, parts)

    monkeypatch.setattr(native_core, "Gathered", short_of_memory)
    with pytest.raises(MemoryError):
        list(nqueens.solutions(12))
    assert not [t for t in threading.enumerate() if t.name == "nqueens-gather"]
