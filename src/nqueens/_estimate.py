"""How many solutions, and how long a count will take, before it starts.

estimate() applies Knuth's random probes ("Estimating the efficiency of
backtrack programs", Math. Comp. 29, 1975) to the subproblems count() would
run.  A probe takes one subproblem at random, places the queens of its empty
rows one row at a time on a free square chosen at random, multiplying the
numbers of free squares met, until few rows are left; the compiled core then
counts and times what is left exactly.  The product times that count (and
that time), times the number of subproblems, is an unbiased estimate of the
whole count (and of the core's whole time); the mean of many probes, taken
for about `budget` seconds, is the estimate, with its standard error.

>>> guess = estimate(12, budget=0.2)
>>> guess.n, abs(guess.solutions - 14200) < 0.25 * 14200, guess.probes > 0
(12, True, True)
"""

from __future__ import annotations

import itertools
import math
import threading
import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, overload

from . import _assembly, _select
from ._counting import TASKS_PER_WORKER, _burnside
from ._tasks import Fields, Subproblem, count_run, free_columns, quadrants_apply, runs, split
from ._validate import as_int, check_bool, check_n, check_workers

if TYPE_CHECKING:
    import random

# a probe stops placing queens when this many rows are left for the core
_LEAF_ROWS = 11
# row sets per timed run of the quadrant core
_QUADRANT_RUN = 16
# a run that costs less than this share of the pace's budget is counted this many times
# over, and timed the last time: the compiled core keeps a north placement of a job
# from its second use, and a whole count uses each many times, where a run of a few
# row sets from a random place uses each once (timed once, runs of 16 gave 2.1x the
# count's time at n = 17 and 2.7x at 15; their third pass 1.0x and 1.1x)
_WARM_SHARE = 1 / 50
_WARM_PASSES = 3
# a pace needs this many whole runs (fewer where there are fewer to run): the cost of a
# run spreads widely, and one cheap run timed alone (a slow build under the sanitizers
# left time for one) put count(20) at 0.4 seconds, with an error it could not tell
_PACE_RUNS = 3
# the symmetries of the square: a class of solutions has 8 members but for the
# very few a turn or a reflection keeps
_SYMMETRIES = 8


class Estimate(NamedTuple):
    """What estimate() found: expected solutions and seconds, each with its standard
    error (from the spread of the probes), and how many probes it took.

    ``str()`` gives the sentence ``nqueens estimate`` prints, and so does a notebook
    (IPython's ``_repr_pretty_``)."""

    n: int
    solutions: float
    solutions_error: float  # inf where no probe reached a solution
    seconds: float
    seconds_error: float
    threads: int
    probes: int
    paced: bool  # the time is from the core's pace on whole runs (else the probes' own)
    exact: bool = False  # every task was counted whole: no error at all
    unique: bool = False
    cluster: int = 0  # workers of a cluster the time is simulated for (0: threads here)
    units: int = 0  # the units count() would cut for that cluster
    work: float = 0.0  # seconds of one core here for the whole count (a cluster estimate)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        # IPython and Jupyter show the sentence, not the raw fields
        printer.text(str(self))

    def __str__(self) -> str:
        where = f"on {self.threads} thread{'s' if self.threads > 1 else ''} here"
        how = ""
        if self.cluster:
            where = (
                f"on a cluster of {self.cluster:,} worker{'s' if self.cluster > 1 else ''}, each "
                f"as fast as one core here: {duration_text(self.work)} of work in "
                f"{self.units:,} units on Dask, {self._efficiency()} efficiency"
            )
            how = "simulated; "
        one, many = ("solution", "solutions")
        if self.unique:
            one, many = ("class of solutions", "classes of solutions")
        if self.probes and not self.exact and self.solutions == 0:
            found = (
                f"no probe of the {self.probes} reached a solution, so there is no estimate "
                f"of the {many} yet (a larger budget probes more)"
            )
        elif self.exact:  # every subproblem counted: the count itself, not an estimate
            found = f"{int(self.solutions):,} {one if self.solutions == 1 else many} (exact)"
        else:
            found = f"about {significant(self.solutions)} {many}{self._error()}"
        return (
            f"N = {self.n}: {found}; the count about {duration_text(self.seconds)} {where} "
            f"({how}{self.probes:,} probe{'s' if self.probes != 1 else ''}"
            + (
                ""
                if self.paced or self.exact
                else "; too few whole runs finished in time, so the time is the probes' own, "
                "an overstatement: a larger budget measures the pace"
            )
            + ")"
        )

    def _efficiency(self) -> str:
        if self.seconds <= 0:
            return "no"
        return f"{self.work / (self.cluster * self.seconds):.0%}"

    def _error(self) -> str:
        if not math.isfinite(self.solutions_error) or self.solutions <= 0:
            return ""
        return f" (± {self.solutions_error / self.solutions:.1%})"


def significant(value: float) -> str:
    """Three significant digits, the rest zeros, written out (no float noise).

    >>> significant(2.41999e32)
    '242,000,000,000,000,000,000,000,000,000,000'
    >>> significant(4.973e9), significant(14.2), significant(0.5)
    ('4,970,000,000', '14.2', '0.5')
    """
    if value < 100:
        return f"{value:.3g}"
    mantissa, exponent = f"{value:.2e}".split("e")
    digits = int(mantissa.replace(".", ""))
    return f"{digits * 10 ** (int(exponent) - 2):,}"


def _probe(task: Subproblem, rng: random.Random) -> tuple[int, Subproblem | None]:
    # one random path down the task's search: (product of the free squares met,
    # what is left for the core), or (0, None) at a dead end
    rows, cols = list(task.rows), list(task.cols)
    empty = [r for r in range(task.n) if r not in task.rows]
    product = 1
    for row in empty[: max(0, len(empty) - _LEAF_ROWS)]:
        free = list(free_columns(Fields(task.n, 1, tuple(rows), tuple(cols)), row))
        if not free:
            return 0, None
        product *= len(free)
        rows.append(row)
        cols.append(rng.choice(free))
    return product, Subproblem(task.n, task.weight, rows, cols)


def estimate(
    n: int,
    *,
    unique: bool = False,
    workers: int = 1,
    budget: float = 1.0,
    seed: int | None = None,
    cluster: int | None = None,
) -> Estimate:
    """The expected number of solutions of the n-queens problem and the seconds that
    count(n, unique=unique, workers=workers) will take on this machine, found by
    random probes of the search for about `budget` seconds (see the module's text).

    Half the budget goes to the probes, half to the core's pace.  Where count()
    goes by quadrant assembly (n = 12 to 23, compiled core), the time is
    the quadrant core's own on runs of 16 consecutive row sets from random
    places, scaled to all of them (plus the table it builds; a table that takes
    longer than the budget, as at n = 22 and 23 under about 10 s, is given up,
    and the time is then the probes' own: ``paced`` says so).  Elsewhere whole
    runs of count()'s own subproblems, taken at random, give solutions a
    second, and the time is the estimated solutions at that pace.  Where fewer
    than 3 runs finish in time (one run says too little: their costs spread
    widely), as for n >= 24 or so, it is the probes' own time, which overstates:
    each probe's rows build the core's table alone.  Either is
    divided over the threads, or, with ``cluster=K``, simulated on K workers (see
    below). The errors are one standard error; the true value lies within two of
    them in about 95 of 100 estimates. Up to n = 12 every subproblem is counted,
    however long that takes: the solutions are exact. Nothing is cached: each
    call probes anew. With unique=True the solutions are divided by 8 (a class
    has 8 members but for the very few that a symmetry keeps); where every
    subproblem was counted, the classes are counted exactly instead (Burnside's
    lemma, as count(unique=True) does).

    Parameters
    ----------
    n
        The board's side.
    unique
        Estimate the symmetry classes instead.
    workers
        The threads the count would run on (-1: one per core).
    budget
        About how many seconds to spend, up to MAX_BUDGET.
    seed
        A seed for the probes, for a repeatable estimate.
    cluster
        The time on a cluster of this many workers instead, each with one thread
        and as fast as one core here, counting through a Dask ``Client``: the
        makespan of list scheduling of the units count() would cut, with Dask's
        cost of a unit and its scheduler's pace as measured here, each worker
        starting after its own table (a plan: the network is taken as free).
        ``units`` and ``work`` (seconds of one core) say what it simulated.

    Returns
    -------
    Estimate
        Solutions and seconds, each with its standard error.

    Raises
    ------
    TypeError, ValueError
        Arguments of the wrong type or out of range.

    Examples
    --------
    >>> estimate(8, budget=0.1).solutions  # n <= 12: every task counted whole, exact
    92.0
    >>> estimate(8, workers=0)
    Traceback (most recent call last):
    ...
    ValueError: workers must be 1 to 1024 threads, -1 (all cores), a map-like or an executor, got 0
    >>> guess = estimate(18, cluster=16, budget=0.2)
    >>> guess.cluster, guess.units >= 16, 0 < guess.seconds < guess.work
    (16, True, True)
    """
    n = check_n(n)
    unique = check_bool(unique, "unique")
    threads = check_workers(workers)
    if not isinstance(threads, int):
        raise TypeError("estimate() takes a number of threads for workers, not a map-like")
    budget = check_budget(budget)
    if seed is not None:
        seed = as_int(seed, "seed")
    cluster = check_cluster(cluster, threads)
    began = time.perf_counter()
    tasks = _tasks_of(n, threads)
    if not tasks:  # no border has a queen on each side: no solution
        return Estimate(n, 0.0, 0.0, 0.0, 0.0, threads, 0, False, True, unique, cluster or 0)
    import random  # here: importing nqueens stays quick

    rng = random.Random(seed)
    core = _select.core
    tables = core.Tables()
    stop = bytearray(1)
    counts: list[float] = []
    times: list[float] = []
    probed = False  # whether any task was too large to count whole
    deadline = began + budget / 2  # half for the probes, half for the pace
    least = len(tasks) if n <= _WHOLE_MAX_N else _PROBES_MIN
    while True:
        # the tasks in a random order, each once (sampling without replacement); again
        # in a new order while time is left, if probes made the estimates random; for
        # very many tasks, drawn with replacement (no order of them all is made)
        if len(tasks) <= _SHUFFLED_MAX:
            order: Iterable[int] = rng.sample(range(len(tasks)), len(tasks))
        else:
            order = (rng.randrange(len(tasks)) for _ in itertools.count())
        for i in order:
            if len(counts) >= least and time.perf_counter() > deadline:
                break
            product, leaf = _probe(tasks[i], rng)
            probed = probed or leaf is None or len(leaf.rows) > len(tasks[i].rows)
            if leaf is None:
                counts.append(0.0)
                times.append(0.0)
                continue
            began = time.perf_counter()
            found = core.count_each([leaf], stop, tables)
            spent = time.perf_counter() - began
            counts.append(float(product * leaf.weight * int(found[0])))
            times.append(product * spent)
        else:
            if probed and time.perf_counter() <= deadline:
                continue
        break
    exact = not probed and len(counts) >= len(tasks)
    share = 0.0 if probed else len(counts) / len(tasks)  # of the tasks, each counted whole
    solutions, solutions_error = _sample_total(counts, len(tasks), share)
    if probed and not any(counts):
        solutions_error = math.inf  # no probe reached a solution: nothing is known
    seconds, seconds_error = _sample_total(times, len(tasks), share)
    paced = False
    pieces: tuple[float, Sequence[float], int] = (0.0, times, len(tasks))  # the table, a sample
    if quadrants_apply(n):
        # count() goes by quadrant assembly: its own pace on random row sets
        timed = _quadrant_seconds(n, budget, rng)
        paced = timed is not None
        if timed is not None:
            seconds, seconds_error, build, per_set, population = timed
            pieces = (build, per_set, population)
    elif isinstance(tasks, list) and solutions > 0:
        # the core's own pace on whole runs (its tables shared as in count()) beats
        # the probes' times, where each leaf builds its table alone
        rate = _rate(tasks, budget / 2, rng)
        paced = rate is not None
        if rate is not None:
            seconds, seconds_error = solutions / rate, solutions_error / rate
    if unique and exact:
        # every subproblem counted: the classes by Burnside's lemma, as count() has them
        # (the total over 8 would miss the classes a symmetry keeps: 11.5 for 12 at n = 8)
        solutions = float(_burnside(n, round(solutions)))
    elif unique:
        solutions, solutions_error = solutions / _SYMMETRIES, solutions_error / _SYMMETRIES
    if cluster is not None:
        return _on_cluster(
            Estimate(
                n,
                solutions,
                solutions_error,
                seconds,
                seconds_error,
                1,
                len(counts),
                paced,
                exact,
                unique,
            ),
            cluster,
            pieces,
            rng,
        )
    return Estimate(
        n,
        solutions,
        solutions_error,
        seconds / threads,
        seconds_error / threads,
        threads,
        len(counts),
        paced,
        exact,
        unique,
    )


MAX_BUDGET = 3600
"""The longest estimate() probes, in seconds."""
MAX_CLUSTER = 10**6
"""The most workers estimate(cluster=K) simulates."""


def check_cluster(cluster: object, threads: int, option: str = "") -> int | None:
    """The workers of a simulated cluster (None: none), refused out of range or
    with threads besides; `option` ("--" for the command line) names the arguments."""
    if cluster is None:
        return None
    cluster = as_int(cluster, "cluster")
    if not 1 <= cluster <= MAX_CLUSTER:
        raise ValueError(f"{option}cluster must be 1 to {MAX_CLUSTER:,} workers, got {cluster}")
    if threads != 1:
        raise ValueError(
            f"give {option}workers (threads here) or {option}cluster (workers there), not both"
        )
    return cluster


def _on_cluster(
    here: Estimate, cluster: int, pieces: tuple[float, Sequence[float], int], rng: random.Random
) -> Estimate:
    # the estimate `here` (one core) turned into the makespan on `cluster` workers
    from . import _makespan
    from ._executors import _Dask, unit_count
    from ._tasks import quadrant_pieces

    build, sample, population = pieces
    work = here.seconds - build
    tasks = None  # the subproblems, which cap the units (the pieces where they are subproblems)
    if quadrants_apply(here.n):
        tasks = quadrant_pieces(here.n)  # about so many, never fewer (more at n = 20)
        if unit_count(work, cluster, _Dask.cost) > tasks:
            tasks = sum(1 for _ in _assembly.tasks(here.n, tasks))
    units, makespan = _makespan.simulate(work, population, sample, build, cluster, rng, tasks)
    error = here.seconds_error / here.seconds * makespan if here.seconds > 0 else 0.0
    return here._replace(
        seconds=makespan, seconds_error=error, cluster=cluster, units=units, work=work
    )


# more tasks than this are drawn with replacement
_SHUFFLED_MAX = 10**5

# the tasks of a board up to this n (at most 730 natively, 3,993 in Python with 16
# threads or more, at n = 12; milliseconds natively, 0.2 s in Python) are all counted
# before the probes look at the clock: a small board's estimate is exact however slow
# the machine is at the moment; of a larger one, at least _PROBES_MIN
_WHOLE_MAX_N = 12
_PROBES_MIN = 8


def check_budget(budget: object) -> float:
    """budget as a float of seconds, above 0 and at most MAX_BUDGET, or raise."""
    if isinstance(budget, bool) or not isinstance(budget, (int, float)):
        raise TypeError(f"budget must be a number of seconds, not {type(budget).__name__}")
    if not 0 < budget <= MAX_BUDGET:  # also refuses nan and inf
        raise ValueError(f"budget must be above 0 and at most {MAX_BUDGET} seconds, got {budget!r}")
    return float(budget)


class _Borders(Sequence[Subproblem]):
    """The canonical borders of a large board as tasks, each made when drawn: a
    probe looks at a few of them, and making them all would take seconds and GBs."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.borders = _select.core.constellations(n)

    def __len__(self) -> int:
        return len(self.borders)

    @overload
    def __getitem__(self, i: int) -> Subproblem: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Subproblem]: ...
    def __getitem__(self, i: int | slice) -> Subproblem | Sequence[Subproblem]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        weight, top, bottom, left, right = self.borders[i]
        n = self.n
        queens = {(0, top), (n - 1, bottom), (left, 0), (right, n - 1)}
        return Subproblem(n, weight, *zip(*sorted(queens)))


def _tasks_of(n: int, threads: int) -> Sequence[Subproblem]:
    # count()'s own subproblems where there are few enough to make; else its borders
    if n < _LAZY_FROM_N and not quadrants_apply(n):
        return split(n, None, threads * TASKS_PER_WORKER)[1]
    return _Borders(n)


# from this n on count()'s split makes 10**5 tasks or more (their making would take
# much of a small budget), and wherever count() goes by quadrants (the pace comes
# from the quadrant core): the probes start from the canonical borders instead,
# made only when drawn (the estimator stays unbiased; n <= 15 counts them whole)
_LAZY_FROM_N = 20


def _rate(tasks: list[Subproblem], budget: float, rng: random.Random) -> float | None:
    # solutions a second of the core on one thread, from runs of tasks (as count()
    # runs them) taken at random for about budget seconds; None if fewer than _PACE_RUNS finished
    starts = runs(tasks)
    spans = list(zip(starts, [*starts[1:], len(tasks)]))
    stop = bytearray(1)
    timer = threading.Timer(budget, stop.__setitem__, (0, 1))
    timer.start()
    found, spent, finished = 0, 0.0, 0
    try:
        for i in rng.sample(range(len(spans)), len(spans)):
            first, end = spans[i]
            began = time.perf_counter()
            results = count_run(tasks[first:end], stop)
            if stop[0]:  # cut short: its counts are partial
                break
            spent += time.perf_counter() - began
            found += sum(results)
            finished += 1
    finally:
        timer.cancel()
    if finished < min(_PACE_RUNS, len(spans)) or not found or spent <= 0:
        return None
    return found / spent


def _quadrant_seconds(
    n: int, budget: float, rng: random.Random
) -> tuple[float, float, float, list[float], int] | None:
    # the quadrant core's time for all of count(n) on one thread, its error, the
    # table's part of it, and the sample (seconds a row set, of all of them):
    # runs of consecutive row sets (as count() takes them), from random places,
    # timed for about budget seconds; None if fewer than _PACE_RUNS finished
    began = time.perf_counter()
    try:  # the table may take the whole budget (n = 22 and 23 take seconds: no pace)
        quarter = _assembly.build(n, seconds=budget)
    except (TimeoutError, MemoryError):
        return None
    build = time.perf_counter() - began
    budget = max(budget / 2 - build, budget / 10)  # what is left of the pace's half
    jobs = _assembly.jobs(n)
    sizes = [_assembly.row_sets(j) for j in jobs]
    population = sum(sizes)
    stop = bytearray(1)
    per_thread = threading.local()
    timer = threading.Timer(budget, stop.__setitem__, (0, 1))
    timer.start()
    per_set: list[float] = []
    passes = 0  # set by the first run: _WARM_PASSES where a run is cheap, else 1
    try:
        while not stop[0] and len(per_set) < population:
            index = rng.choices(range(len(jobs)), weights=sizes)[0]
            first = rng.randrange(sizes[index])
            end = min(sizes[index], first + _QUADRANT_RUN)
            task = _assembly.RowSets(index, first, end)
            for done in itertools.count(1):
                began = time.perf_counter()
                _assembly.count_tasks(quarter, jobs, [task], stop, per_thread)
                spent = time.perf_counter() - began
                if not passes:
                    passes = _WARM_PASSES if spent < budget * _WARM_SHARE else 1
                if stop[0] or done >= passes:
                    break
            if stop[0]:  # cut short
                break
            per_set.append(spent / (end - first))
    finally:
        timer.cancel()
    if len(per_set) < min(_PACE_RUNS, population):
        return None
    seconds, error = _sample_total(per_set, population, 0.0)
    return build + seconds, error, build, per_set, population


def _sample_total(values: list[float], population: int, share: float) -> tuple[float, float]:
    # the estimate of a total over `population` tasks from a sample of them (their
    # share, when each was counted whole: its error shrinks to 0 as it reaches 1)
    if share >= 1:
        return float(sum(values)), 0.0
    mean = sum(values) / len(values)
    if len(values) < 2:
        return population * mean, math.inf
    variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return population * mean, population * math.sqrt((1 - share) * variance / len(values))


def duration_text(seconds: float) -> str:
    """A duration in the largest unit that keeps it readable (under 10 ms, in
    milliseconds or microseconds rather than a power of ten).

    >>> duration_text(0.61), duration_text(42), duration_text(600), duration_text(86400 * 3)
    ('0.61 seconds', '42 seconds', '10 minutes', '3 days')
    >>> duration_text(0.0011), duration_text(2.4e-05), duration_text(0.000999), duration_text(0)
    ('1.1 milliseconds', '24 microseconds', '1 millisecond', '0 seconds')
    """
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600)):
        if seconds >= 2 * size:
            return f"{seconds / size:,.0f} {unit}"
    if seconds >= 120:
        return f"{seconds / 60:.0f} minutes"
    if seconds >= 10:
        return f"{seconds:.0f} seconds"
    value, unit = float(f"{seconds:.2g}"), "second"
    if 0 < value < 0.01:
        size, unit = (1e-3, "millisecond") if value >= 1e-3 else (1e-6, "microsecond")
        value = float(f"{value / size:.2g}")  # (again: the quotient's float noise)
    return f"{value:g} {unit}{'' if value == 1 else 's'}"
