"""The plan of a count on workers: the units, the calls that carry them, the subproblems
counted twice.

count(n, workers=...) cuts the pending subproblems into units (runs of subproblems
that can share the core's table), as many as balance what a unit costs the engine
against the time a worker may wait at the end (``unit_count``: from the pace measured
here on a few subproblems), in whole rounds of the workers (ASSUMED_WORKERS where the
engine does not say); each unit holds a like sample of the whole split (``cut_units``),
so that the units take about as long (at odd n, of whole blocks of a cross's runs: the
core keeps the work of one cross at a time).  Where the engine says how many workers
it has, a first round of one unit a worker goes out before the pace, which is measured
here, in processor time, while they count.

A share ``recount`` of the subproblems, chosen at random per call of count(), and never
fewer than MIN_CHECKS, is counted twice (``choose_twice``): the few whose pace is
measured here (at least LOCAL_CHECKS - 1) and the first results' gate in this process,
the rest through the workers a second time, in units of their own, sent after the
units that hold them (so that the second count usually lands on another worker).  The
checks are counted in subproblems, not units: the units grow with the work, the share
of the work checked does not shrink with them.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, NamedTuple, cast

from ..assembly import QuadrantTask
from ..subproblems import AnySubproblem, runs
from .messages import Unit

if TYPE_CHECKING:
    import random

    from .engines import Engine


# A plain map-like is called at most this many times per count (each call's
# results are journalled before the next is read) and each call holds at
# least PER_CALL units (so that a call keeps a cluster busy)
BATCHES = 64
PER_CALL = 16
UNITS_PER_WORKER = 4
"""Units at least per worker."""
ASSUMED_WORKERS = 16
"""The workers assumed where the engine does not say how many it has."""
# the pace is measured on up to this many random subproblems, for up to this long
PACE_SUBPROBLEMS = 16
PACE_SECONDS = 0.03
# subproblems counted twice per count, at the least (all of them where there are fewer)
MIN_CHECKS = 4
# of those, counted again in the calling process (one of them from the first results)
LOCAL_CHECKS = 2
# checks of the first results, none with a solution, after which the gate opens
GATE_TRIES = 8
RECOUNT_DEFAULT = 0.02
"""The share of subproblems count() counts twice by default (see count's ``recount``)."""


def work_of(subproblem: AnySubproblem) -> int:
    """A subproblem's work in the units the cut balances: row sets (a quadrant subproblem), or 1."""
    return subproblem.end - subproblem.first if isinstance(subproblem, QuadrantTask) else 1


def unit_count(seconds: float | None, size: int | None, cost: float) -> int:
    """How many units count() cuts `seconds` of work (one core of this machine; None: not
    measured) into for `size` workers (None: the engine does not say), each unit
    costing the engine `cost` seconds: about sqrt(seconds * size / (2 * cost)), the
    number that balances the engine's cost of the units against a worker's idle
    time at the end (half a unit), in whole rounds of `size`, a few at least."""
    workers = size or ASSUMED_WORKERS
    if seconds is None:
        found = UNITS_PER_WORKER * workers
    else:
        balanced = math.ceil(math.sqrt(seconds * workers / (2 * cost)))
        found = max(UNITS_PER_WORKER * workers, balanced)
    return -(-found // workers) * workers


def cut_units(
    subproblems: Sequence[AnySubproblem], pending: Sequence[int], count: int
) -> list[tuple[int, ...]]:
    """The pending subproblems' indices cut into `count` units (fewer where there are fewer
    runs) of similar work, each made of whole runs of subproblems that share a table.

    The work of a subproblem varies along the split by a factor of hundreds, so a unit
    is not one stretch of it: the runs are dealt to the units one at a time, back
    and forth (the first unit takes the first run and the 2*count-th), so that
    every unit holds a like sample of the whole, and units take about as long.
    Quadrant subproblems are dealt in runs of up to QUADRANT_RUN neighbours, which
    keep the core's work from one subproblem to the next.

    Where the split holds several jobs (odd n: the crosses, one or several a
    job), a worker's core keeps the north placements of one job, the last: a
    unit that takes one run of each job places them all again.  There the runs,
    in their order, are cut into `count` stretches of about as many runs, a unit
    each (``_blocks``): a stretch may end one job and start the next, so the
    units meet at most count + jobs - 1 jobs in all, and each takes as many runs,
    to one."""
    starts = runs([subproblems[i] for i in pending])
    bounds = [*starts[1:], len(pending)]
    count = max(1, min(count, len(starts)))
    members: list[list[int]] = [[] for _ in range(count)]
    for k, (a, b) in enumerate(_blocks(subproblems, pending, starts, bounds, count)):
        lap, place = divmod(k, count)
        members[place if lap % 2 == 0 else count - 1 - place].extend(pending[a:b])
    return [tuple(unit) for unit in members]


def _blocks(
    subproblems: Sequence[AnySubproblem],
    pending: Sequence[int],
    starts: Sequence[int],
    bounds: Sequence[int],
    count: int,
) -> list[tuple[int, int]]:
    """The stretches of `pending` (positions) cut_units deals: its runs, or, where the
    quadrant subproblems' runs belong to several jobs, `count` stretches of about as many
    runs, in their order."""
    jobs: list[list[int]] = []  # the runs (their numbers), job by job
    last = None
    for k, a in enumerate(starts):
        subproblem = subproblems[pending[a]]
        key = (subproblem.n, subproblem.cross) if isinstance(subproblem, QuadrantTask) else k
        if jobs and key == last:
            jobs[-1].append(k)
        else:
            jobs.append([k])
        last = key
    if len(jobs) <= 1 or len(jobs) == len(starts):  # one job, or every run its own
        return list(zip(starts, bounds))
    edges = [round(p * len(starts) / count) for p in range(count + 1)]
    return [(starts[a], bounds[b - 1]) for a, b in zip(edges, edges[1:])]


def _calls(count: int, calls: int) -> list[list[int]]:
    # positions 0..count-1 in `calls` runs of about as many
    calls = max(1, min(calls, count))
    edges = [round(k * count / calls) for k in range(calls + 1)]
    return [list(range(a, b)) for a, b in zip(edges, edges[1:]) if b > a]


class Plan(NamedTuple):
    payloads: list[Unit]
    again: list[bool]  # a payload of second counts
    calls: list[list[int]]  # payload positions, call by call


def plan(
    subproblems: Sequence[AnySubproblem],
    cut: Sequence[tuple[int, ...]],
    twice: set[int],
    calls: int,
    rng: random.Random,
    first: int = 0,
) -> Plan:
    """The payloads: the units of `cut` in `calls` calls (the first `first` units in
    a call of their own before them), and the subproblems in `twice` again, in units of
    their own (about as big) in the call after their own."""
    payloads = [Unit(u, tuple(subproblems[i] for i in u)) for u in cut]
    again = [False] * len(payloads)
    grouped = [list(range(first))] if first else []
    if len(cut) > first:
        grouped += [[p + first for p in call] for call in _calls(len(cut) - first, calls)]
    target = max(1, max((len(u) for u in cut), default=1))
    later: list[list[int]] = [[] for _ in range(len(grouped) + 1)]
    for k, call in enumerate(grouped):
        chosen = sorted(i for p in call for i in cut[p] if i in twice)
        rng.shuffle(chosen)
        for a in range(0, len(chosen), target):
            piece = tuple(sorted(chosen[a : a + target]))
            later[k + 1].append(len(payloads))
            payloads.append(Unit(piece, tuple(subproblems[i] for i in piece)))
            again.append(True)
    merged = [call + later[k] for k, call in enumerate(grouped)]
    if later[-1]:
        merged.append(later[-1])
    return Plan(payloads, again, merged)


def choose_twice(
    pending: Sequence[int], here: Iterable[int], recount: float, local: bool, rng: random.Random
) -> set[int]:
    """The subproblems counted a second time through the workers: with those counted `here`,
    a share `recount` of the pending subproblems, at random, MIN_CHECKS at least, and
    MIN_CHECKS - LOCAL_CHECKS of them through the workers at least (`local`: the
    gate counts one more here; every check goes through the workers without)."""
    if recount <= 0:
        return set()
    counted = set(here)
    wanted = max(round(recount * len(pending)), min(MIN_CHECKS, len(pending)))
    rest = [i for i in pending if i not in counted]
    remote = max(wanted - len(counted), MIN_CHECKS - LOCAL_CHECKS) if local else wanted
    return set(rng.sample(rest, min(len(rest), remote)))


class Layout:
    """The plan of one call of results(), made as the engine takes its calls.

    Where the pace is to be measured and the engine says how many workers it has,
    a first round (a unit a worker, cut as for the fewest units) goes out before
    anything else: this process's table and the pace then cost the workers no
    waiting.  The rest of the subproblems, a like sample of the split, is cut by the
    pace, its last round in units of half the size.  The plan is whole once
    calls() has given its second call (its first without a first round); every
    engine with a size takes all its calls before it hands on a result, and the
    others (a map-like) get no first round.  A forked pool (its units through
    shared memory, next to free) gets neither a first round nor a pace: each run
    of subproblems is a unit, and its subproblems checked here are counted once it has forked
    (count_here)."""

    def __init__(
        self,
        engine: Engine,
        subproblems: Sequence[AnySubproblem],
        pending: list[int],
        recount: float,
        local: Callable[[Unit], list[int]] | None,
        ready: Callable[[], bool] | None,
        rng: random.Random,
        units: int | None,
    ) -> None:
        self.engine, self.subproblems, self.pending, self.recount = (
            engine,
            subproblems,
            pending,
            recount,
        )
        self.local, self.ready, self.rng, self.units = local, ready, rng, units
        self.payloads: list[Unit] = []  # grows as calls() plans
        self.here: dict[int, int] = {}  # subproblems counted here, with their counts
        self.twice: set[int] = set()  # subproblems counted twice through the workers
        self.deferred: list[int] = []  # subproblems to count here once a forked pool runs
        self.laid: Plan | None = None

    def calls(self) -> Iterator[list[int]]:
        subproblems, pending, size = self.subproblems, self.pending, self.engine.size
        first: list[tuple[int, ...]] = []
        shared = self.engine.shared
        if self.units is None and size and self.local is not None and not shared:
            fewest = cut_units(subproblems, pending, unit_count(None, size, self.engine.cost))
            first = fewest[:size]
            self.payloads.extend(Unit(u, tuple(subproblems[i] for i in u)) for u in first)
            yield list(range(len(first)))
        seconds = None
        if shared:
            # planned while this process's table builds: the subproblems checked here are
            # counted once the pool has forked (count_here), and the checks through
            # the workers are as many as if none were (there may be no table here);
            # with nothing to check, no table here either
            if self.recount <= 0:
                self.local = None
            wanted = LOCAL_CHECKS - 1 if self.local is not None else 0
            self.deferred = self.rng.sample(pending, min(len(pending), wanted))
        else:
            self._check_table()
            seconds = self._pace()
        units = self.units
        if units is None:
            # through shared memory, each run of subproblems a unit, taken as threads take them
            units = len(pending) if shared else unit_count(seconds, size, self.engine.cost)
        taken = {i for unit in first for i in unit}
        rest = [i for i in pending if i not in taken]
        cut = first + (cut_units(subproblems, rest, max(1, units - len(first))) if rest else [])
        if self.units is None and size and len(cut) >= 3 * size and not shared:
            # the last round in halves: the workers end closer together
            cut[-size:] = [half for unit in cut[-size:] for half in cut_units(subproblems, unit, 2)]
        if shared:
            self.twice = choose_twice(pending, self.deferred, self.recount, False, self.rng)
        else:
            here = self.here
            self.twice = choose_twice(pending, here, self.recount, self.local is not None, self.rng)
        calls = max(1, min(BATCHES, len(cut) // PER_CALL))
        laid = plan(subproblems, cut, self.twice, calls, self.rng, len(first))
        self.payloads[len(first) :] = laid.payloads[len(first) :]
        self.laid = laid
        yield from laid.calls[1:] if first else laid.calls

    def count_here(self) -> None:
        """For a pool forked at its first submit, once it has forked: the subproblems
        chosen to be checked here, counted here (unless this process has no table)."""
        self._check_table()
        local = self.local
        if local is not None:
            for index in self.deferred:
                self.here[index] = local(Unit((index,), (self.subproblems[index],)))[0]
        self.deferred = []

    def _check_table(self) -> None:
        if self.local is not None and self.ready is not None and not self.ready():
            self.local = None  # no table here: every check goes through the workers

    def _pace(self) -> float | None:
        """The seconds of work of the pending subproblems on one core of this machine, from a few
        random subproblems counted here (checks too, unless recount is 0); None: not
        measured."""
        local, subproblems, pending = self.local, self.subproblems, self.pending
        spent = 0.0
        measured = 0
        if local is not None and (self.recount > 0 or self.units is None):
            wanted_here = PACE_SUBPROBLEMS if self.units is None else LOCAL_CHECKS - 1
            started = time.perf_counter()
            for index in self.rng.sample(pending, min(len(pending), wanted_here)):
                begun = _cpu()
                self.here[index] = local(Unit((index,), (subproblems[index],)))[0]
                spent += _cpu() - begun
                measured += work_of(subproblems[index])
                if time.perf_counter() - started > PACE_SECONDS:
                    break
        if self.recount <= 0:
            self.here.clear()
        if not measured:
            return None
        if isinstance(subproblems[pending[0]], QuadrantTask):  # (work_of's, 4,420 at n = 18)
            quads = cast("Sequence[QuadrantTask]", subproblems)
            return spent / measured * sum(quads[i][3] - quads[i][2] for i in pending)
        return spent / measured * sum(work_of(subproblems[i]) for i in pending)


_cpu_clock: list[Callable[[], float]] = []


def _cpu() -> float:
    """This thread's processor time, where the clock is fine enough for subproblems of a
    millisecond (the pace is measured while the first units count, on the same
    cores: wall time would count their share too); else the wall clock."""
    if not _cpu_clock:
        fine = time.get_clock_info("thread_time").resolution <= 1e-6
        _cpu_clock.append(time.thread_time if fine else time.perf_counter)
    return _cpu_clock[0]()
