"""How many solutions, and how long a count will take, before it starts.

estimate() applies Knuth's random probes ("Estimating the efficiency of
backtrack programs", Math. Comp. 29, 1975) to the subproblems count() would
run.  A probe takes one subproblem at random, places the queens of its empty
rows one row at a time on a free square chosen at random, multiplying the
numbers of free squares met, until few rows are left; the compiled core then
counts and times what is left exactly.  The product times that count (and
that time), times the number of subproblems, is an unbiased estimate of the
whole count; the mean of many probes is the estimate, with its standard error.

The time is measured on count()'s own work: where count() goes by quadrant
assembly, the table is built once and runs of consecutive row sets are timed
from random places on the thread's processor clock; elsewhere, whole runs of
count()'s subproblems.  Where that cannot be done in the budget, the pace of a
smaller board stands in, and the time is a range.

>>> guess = estimate(12, budget=0.2)
>>> guess.n, abs(guess.solutions - 14200) < 0.25 * 14200, guess.probes > 0
(12, True, True)
"""

from __future__ import annotations

import bisect
import itertools
import math
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, overload

from .. import _select
from .._placements.completion import check_placed
from .._validate import as_int, check_bool, check_n, check_workers
from . import assembly as _assembly
from .counting import SUBPROBLEMS_PER_WORKER, burnside, count
from .subproblems import (
    QUADRANTS_MIN_N,
    Fields,
    Subproblem,
    count_run,
    free_columns,
    quadrants_apply,
    runs,
    split,
)

if TYPE_CHECKING:
    import random

# a probe stops placing queens when this many rows are left for the core
_LEAF_ROWS = 11
# row sets per timed run of the quadrant core
_QUADRANT_RUN = 16
# a run that costs less than this share of the pace's budget is counted this many times
# over, and timed the last time: the compiled core keeps a north placement of a job
# from its second use, and a whole count uses each many times, where a run of a few
# row sets from a random place uses each once (timed once, it would overstate the
# count several times over on the boards whose jobs keep much)
_WARM_SHARE = 1 / 50
_WARM_PASSES = 3
# a pace needs this many whole runs (fewer where there are fewer to run): the cost of a
# run spreads widely, and one cheap run timed alone (a slow build under the sanitizers
# left time for one) put count(20) at 0.4 seconds, with an error it could not tell
_PACE_RUNS = 3
# the probes' share of the budget where count() goes by quadrants (elsewhere, half)
_PROBE_SHARE_QUADRANTS = 1 / 4
# a count whose sampled time is at most this share of what is left of the budget is
# counted whole instead, and timed
_WHOLE_SHARE = 2.0
# runs that a pace's budget is cut into: the cost of a run of row sets spreads about
# as widely as its mean, so a hundred put the standard error near a tenth
_RUNS_WANTED = 100
# a pace is reliable from this many runs on, with a standard error at most this share
_RELIABLE_RUNS = 30
_RELIABLE_ERROR = 0.15
# where the pace at n is not measured, the quadrant core's pace at a smaller board of
# the same parity stands in: from it to n the pace (solutions a second) has changed
# by these factors at the most (lower at larger n as the tables outgrow the caches)
_PACE_FASTER, _PACE_SLOWER = 2.0, 0.45
# the table's build grows about this much from n to n + 2
_BUILD_GROWTH = 12.0
# the row-by-row core's pace on a whole board that it counts in a fraction of a
# second (compiled, pure Python) stands in for its pace at a board beyond reach,
# which is between these factors of it
_ROW_REFERENCE_N = (15, 10)
_ROW_FASTER, _ROW_SLOWER = 1.5, 1 / 8
# the probes' own times overstate the count's by up to this factor: each leaf builds
# the core's table alone, where count() shares it over a run
_PROBES_OVERSTATE = 30.0

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
    paced: bool  # the time is from the core's own pace at n (else a range: seconds_low..high)
    exact: bool = False  # every subproblem was counted whole: no error at all
    unique: bool = False
    cluster: int = 0  # workers of a cluster the time is simulated for (0: local threads)
    units: int = 0  # the units count() would cut for that cluster
    work: float = 0.0  # seconds of one local core for the whole count (a cluster estimate)
    seconds_low: float = 0.0  # not paced: the range the time lies in (seconds is its middle)
    seconds_high: float = 0.0
    budget_needed: float = 0.0  # not paced: a budget that measures the pace (0: none does)
    reference: int = 0  # not paced: the board whose pace gave the range (0: the probes')

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        # IPython and Jupyter show the sentence, not the raw fields
        printer.text(str(self))

    def __str__(self) -> str:
        where = f"on {self.threads} thread{'s' if self.threads > 1 else ''} of this machine"
        how = ""
        if self.cluster:
            where = (
                f"on a cluster of {self.cluster:,} worker{'s' if self.cluster > 1 else ''}, each "
                f"as fast as one core of this machine: {duration_text(self.work)} of work in "
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
            f"N = {self.n}: {found}; the count {self.duration()} {where} "
            f"({how}{self.probes:,} probe{'s' if self.probes != 1 else ''}{self._unpaced()})"
        )

    def duration(self) -> str:
        """How long the count takes, in words: "about 3 minutes", or where the pace
        was not measured, "between 2 and 9 hours".

        >>> Estimate(20, 3.9e10, 7e8, 62.0, 4.0, 1, 6000, True).duration()
        'about 62 seconds'
        >>> Estimate(22, 2.7e12, 5e10, 6e3, 0.0, 1, 6000, False, seconds_low=3.5e3,
        ...          seconds_high=1.1e4).duration()
        'between 58 minutes and 3 hours'
        """
        if self.paced or self.exact or self.seconds_high <= 0:
            low = high = duration_text(self.seconds)
        else:
            low, high = duration_text(self.seconds_low), duration_text(self.seconds_high)
        if low == high:
            return low if low.startswith("more than") else f"about {low}"
        return f"between {low} and {high}"

    def _unpaced(self) -> str:
        if self.paced or self.exact or self.seconds_high <= 0:
            return ""
        if not self.reference:
            return (
                "; too few runs of the core finished in time, so the range is from the "
                "probes' own times, which overstate: a larger budget measures the pace"
            )
        text = (
            f"; the core's pace at N = {self.n} was not measured, so the range is from "
            f"its pace at N = {self.reference}"
        )
        if self.budget_needed:
            return text + f": a budget of about {self.budget_needed:g} seconds measures it"
        return text + ": no budget measures count()'s own subproblems at this size"

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


def _probe(subproblem: Subproblem, rng: random.Random) -> tuple[int, Subproblem | None]:
    # one random path down the subproblem's search: (product of the free squares met,
    # what is left for the core), or (0, None) at a dead end
    rows, cols = list(subproblem.rows), list(subproblem.cols)
    empty = [r for r in range(subproblem.n) if r not in subproblem.rows]
    product = 1
    for row in empty[: max(0, len(empty) - _LEAF_ROWS)]:
        free = list(free_columns(Fields(subproblem.n, 1, tuple(rows), tuple(cols)), row))
        if not free:
            return 0, None
        product *= len(free)
        rows.append(row)
        cols.append(rng.choice(free))
    return product, Subproblem(subproblem.n, subproblem.weight, rows, cols)


def estimate(
    n: int,
    *,
    unique: bool = False,
    workers: int = 1,
    budget: float = 1.0,
    seed: int | None = None,
    cluster: int | None = None,
) -> Estimate:
    """Estimate the number of solutions of the n-queens problem, and how long
    count(n, unique=unique, workers=workers) takes on this machine.

    Random probes of the search estimate the solutions, and count()'s own subproblems,
    timed on this machine, give the time; a count that fits in the budget is counted
    instead, and the answer is exact.  Where no budget can measure the pace, the time
    is a range.  Each call probes anew.

    Parameters
    ----------
    n
        The board's side.
    unique
        Estimate the classes under rotation and reflection instead.
    workers
        The threads the count would run on (-1: one per core).
    budget
        About how many seconds to spend, up to MAX_BUDGET.
    seed
        A seed for the probes, for a repeatable estimate.
    cluster
        The time on a Dask cluster of this many workers instead, each with one thread
        as fast as one core of this machine (a simulation of the units count() would
        cut).

    Returns
    -------
    Estimate
        Solutions and seconds with their standard errors, or the seconds as a range;
        ``str()`` is the sentence ``nqueens estimate`` prints.

    Raises
    ------
    TypeError, ValueError
        Arguments of the wrong type or out of range.

    Examples
    --------
    >>> estimate(8, budget=0.1).solutions  # small boards are counted whole: exact
    92.0
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
    return _estimate(n, unique, threads, budget, seed, cluster)


def _estimate(
    n: int,
    unique: bool,
    threads: int,
    budget: float,
    seed: int | None,
    cluster: int | None,
    root: Subproblem | None = None,
) -> Estimate:
    # estimate() of checked arguments; with `root`, of the count of its completions
    began = time.perf_counter()
    subproblems: Sequence[Subproblem] = [root] if root is not None else _subproblems_of(n, threads)
    if not subproblems:  # no border has a queen on each side: no solution
        return Estimate(n, 0.0, 0.0, 0.0, 0.0, threads, 0, False, True, unique, cluster or 0)
    import random  # here: importing nqueens stays quick

    rng = random.Random(seed)
    core = _select.bitsolver
    tables = core.Tables()
    stop = bytearray(1)
    counts, times = _Sample(), _Sample(rng)
    probed = False  # whether any subproblem was too large to count whole
    quadrants = root is None and quadrants_apply(n)
    # the probes' share of the budget; the rest measures the pace (the quadrant core
    # needs the more of it: its runs' costs spread widely, the probes' little)
    deadline = began + budget * (_PROBE_SHARE_QUADRANTS if quadrants else 0.5)
    least = len(subproblems) if n <= _WHOLE_MAX_N else _PROBES_MIN
    while True:
        # the subproblems in a random order, each once (sampling without replacement); again
        # in a new order while time is left, if probes made the estimates random; for
        # very many subproblems, drawn with replacement (no order of them all is made)
        if len(subproblems) <= _SHUFFLED_MAX:
            order: Iterable[int] = rng.sample(range(len(subproblems)), len(subproblems))
        else:
            order = (rng.randrange(len(subproblems)) for _ in itertools.count())
        for i in order:
            if len(counts) >= least and time.perf_counter() > deadline:
                break
            product, leaf = _probe(subproblems[i], rng)
            probed = probed or leaf is None or len(leaf.rows) > len(subproblems[i].rows)
            if leaf is None:
                counts.add(0.0)
                times.add(0.0)
                continue
            began = time.perf_counter()
            found = core.count_each([leaf], stop, tables)
            spent = time.perf_counter() - began
            counts.add(float(product * leaf.weight * int(found[0])))
            times.add(product * spent)
        else:
            if probed and time.perf_counter() <= deadline:
                continue
        break
    exact = not probed and len(counts) >= len(subproblems)
    share = (
        0.0 if probed else len(counts) / len(subproblems)
    )  # of the subproblems, each counted whole
    solutions, solutions_error = counts.total(len(subproblems), share)
    if probed and not counts.nonzero:
        solutions_error = math.inf  # no probe reached a solution: nothing is known
    seconds, seconds_error = times.total(len(subproblems), share)
    paced = False
    spread_over = threads  # the time is divided over them, but the table's build
    low = high = needed = 0.0  # the range where the pace is not measured
    reference = 0  # the board whose pace gave that range
    build = 0.0  # the table's part of the time: built once, on one thread
    sampled: tuple[float, Sequence[float], int] = (
        0.0,
        times.kept,
        len(subproblems),
    )  # table, sample
    left = max(budget - (time.perf_counter() - began), budget / 10)
    if quadrants:
        # count() goes by quadrant assembly: its own pace on random row sets
        pace = _quadrant_pace(n, left, rng)
        if pace is not None and _reliable(pace):
            paced = True
            seconds, seconds_error, build = pace.seconds, pace.error, pace.build
            sampled = (pace.build, pace.per_set, pace.population)
            if cluster is None and _WHOLE_SHARE * seconds <= began + budget - time.perf_counter():
                # the count itself fits in what is left: counted and timed, on the
                # threads asked for (small counts lose to threads' start and to each
                # thread keeping its own placements, which a sample cannot tell)
                clock = time.perf_counter()
                total = count(n, workers=threads)
                seconds, seconds_error, build = time.perf_counter() - clock, 0.0, 0.0
                solutions, solutions_error, exact, spread_over = float(total), 0.0, True, 1
        else:
            low, high, needed, reference = _quadrant_range(n, solutions, budget, rng)
    elif isinstance(subproblems, list) and solutions > 0 and (root is None or exact):
        # the core's own pace on whole runs (its tables shared as in count()) beats
        # the probes' times, where each leaf builds its table alone
        rate = _rate(subproblems, left, rng)
        paced = rate is not None
        if rate is not None:
            seconds, seconds_error = solutions / rate, solutions_error / rate
        else:  # the probes' own times, each leaf building its table alone: an overstatement
            low, high = seconds / _PROBES_OVERSTATE, seconds
    elif solutions > 0:
        # count()'s subproblems of such a board each take longer than any budget: the pace
        # of the row-by-row core on a smaller board, and how it may change up to n
        low, high, reference = _row_range(solutions, budget)
    if not paced:
        if high <= 0:  # no solution met: the probes' own time is all there is
            low, high = seconds / _PROBES_OVERSTATE, seconds
        elif solutions > 0 and math.isfinite(solutions_error):
            # the range of a pace times the solutions: as wide again as two standard
            # errors of those (a small budget probes little)
            wider = min(0.9, 2 * solutions_error / solutions)
            low, high = low * (1 - wider), high * (1 + wider)
        seconds, seconds_error = math.sqrt(low * high), 0.0
    if unique and exact:
        # every subproblem counted: the classes by Burnside's lemma, as count() has them
        # (the total over 8 would miss the classes a symmetry keeps: 11.5 for 12 at n = 8)
        solutions = float(burnside(n, round(solutions)))
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
                seconds_low=low,
                seconds_high=high,
                budget_needed=needed,
                reference=reference,
            ),
            cluster,
            sampled,
            rng,
        )

    def spread(total: float) -> float:  # over the threads, but the table's build
        return total if total <= build else build + (total - build) / spread_over

    return Estimate(
        n,
        solutions,
        solutions_error,
        spread(seconds),
        seconds_error / spread_over,
        threads,
        len(counts),
        paced,
        exact,
        unique,
        seconds_low=spread(low),
        seconds_high=spread(high),
        budget_needed=needed,
        reference=reference,
    )


LONGEST = 365.25 * 86400
"""The longest count that ``nqueens count`` starts without ``--anyway``: a year."""
# the estimate made before such a count
_NOTICE_BUDGET = 1.0


def before_count(
    n: int, unique: bool, threads: int, placed: object = None, budget: float = _NOTICE_BUDGET
) -> Estimate:
    """The estimate of the count that count(n, unique=unique, workers=threads,
    placed=placed) runs (checked arguments), with its placed queens."""
    root = None
    if placed is not None:
        rows, cols = check_placed(n, placed)
        root = Subproblem(n, 1, rows, cols) if rows else None
    return _estimate(n, unique, threads, budget, None, None, root)


def spread_over(found: Estimate, workers: int) -> Estimate:
    """The estimate of one thread's count spread evenly over `workers` as fast cores."""
    return found._replace(
        seconds=found.seconds / workers,
        seconds_error=found.seconds_error / workers,
        seconds_low=found.seconds_low / workers,
        seconds_high=found.seconds_high / workers,
    )


def too_long(found: Estimate) -> bool:
    """Whether even the short end of the estimate passes LONGEST."""
    shortest = found.seconds if found.paced or found.exact else found.seconds_low
    return shortest > LONGEST


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
            f"give {option}workers (threads of this machine) or {option}cluster (workers "
            "there), not both"
        )
    return cluster


def _on_cluster(
    here: Estimate, cluster: int, sampled: tuple[float, Sequence[float], int], rng: random.Random
) -> Estimate:
    # the estimate `here` (one core) turned into the makespan on `cluster` workers
    from . import makespan as _makespan
    from .subproblems import quadrant_split_size
    from .workers.engines import UNIT_COST
    from .workers.plan import unit_count

    build, sample, population = sampled
    work = here.seconds - build
    subproblems = (
        None  # the subproblems, which cap the units (the row sets where they are subproblems)
    )
    if quadrants_apply(here.n):
        subproblems = quadrant_split_size(here.n)  # about so many, never fewer (more at n = 20)
        if unit_count(work, cluster, UNIT_COST) > subproblems:
            subproblems = sum(1 for _ in _assembly.subproblems(here.n, subproblems))
    units, makespan = _makespan.simulate(work, population, sample, build, cluster, rng, subproblems)
    scale = makespan / here.seconds if here.seconds > 0 else 0.0
    return here._replace(
        seconds=makespan,
        seconds_error=here.seconds_error * scale,
        seconds_low=here.seconds_low * scale,
        seconds_high=here.seconds_high * scale,
        cluster=cluster,
        units=units,
        work=work,
    )


# more subproblems than this are drawn with replacement
_SHUFFLED_MAX = 10**5

# the subproblems of a board up to this n (at most 730 natively, 3,993 in Python with 16
# threads or more, at n = 12: quick even in Python) are all counted
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
    """The canonical borders of a large board as subproblems, each made when drawn: a
    probe looks at a few of them, and making them all would take seconds and GBs."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.borders = _select.bitsolver.constellations(n)

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


def _subproblems_of(n: int, threads: int) -> Sequence[Subproblem]:
    # count()'s own subproblems where there are few enough to make; else its borders
    if n < _LAZY_FROM_N and not quadrants_apply(n):
        return split(n, None, threads * SUBPROBLEMS_PER_WORKER)[1]
    return _Borders(n)


# from this n on count()'s split makes 10**5 subproblems or more (their making would take
# much of a small budget), and wherever count() goes by quadrants (the pace comes
# from the quadrant core): the probes start from the canonical borders instead,
# made only when drawn (the estimator stays unbiased; n <= 15 counts them whole)
_LAZY_FROM_N = 20


def _rate(subproblems: list[Subproblem], budget: float, rng: random.Random) -> float | None:
    # solutions a second of the core on one thread, from runs of subproblems (as count()
    # runs them) taken at random for about budget seconds; None if fewer than _PACE_RUNS finished
    starts = runs(subproblems)
    spans = list(zip(starts, [*starts[1:], len(subproblems)]))
    stop = bytearray(1)
    timer = threading.Timer(budget, stop.__setitem__, (0, 1))
    timer.start()
    found, spent, finished = 0, 0.0, 0
    try:
        for i in rng.sample(range(len(spans)), len(spans)):
            first, end = spans[i]
            began = time.perf_counter()
            results = count_run(subproblems[first:end], stop)
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


class _Pace(NamedTuple):
    """The quadrant core's time for a whole count on one thread, from a sample."""

    seconds: float  # the table's build and every row set
    error: float  # one standard error
    build: float  # the table's part of `seconds`
    per_set: list[float]  # the sample: seconds of each run, a row set
    population: int  # the row sets of the count
    rate: float  # solutions a second of the sample (0: none met)


def _quadrant_pace(n: int, budget: float, rng: random.Random) -> _Pace | None:
    # The quadrant core's time for all of count(n) on one thread: the table's build
    # once, then runs of consecutive row sets (as count() takes them) from random
    # places, each timed on this thread's processor clock, so that other programs
    # that share the cores do not stretch it; None where the table does not fit in
    # the budget or fewer than _PACE_RUNS runs finish
    began = time.perf_counter()
    try:  # the table may outlast the whole budget (n = 22 and 23 take seconds)
        quarter = _assembly.build(n, seconds=budget)
    except (TimeoutError, MemoryError):
        return None
    build = time.perf_counter() - began
    deadline = began + max(budget, build + budget / 10)
    jobs = _assembly.jobs(n)
    sizes = [_assembly.row_sets(j) for j in jobs]
    population = sum(sizes)
    per_thread = threading.local()
    stop = bytearray(1)
    per_set: list[float] = []
    found, spent = 0, 0.0
    # the core keeps a job's north placements from their second use on, as a whole
    # count does all along: where that pays (odd boards, and any that groups crosses)
    # a run is counted _WARM_PASSES times over and timed the last time; even boards
    # larger than that gain nothing from a second pass
    warm = n % 2 == 1 or n <= _assembly.GROUPED_MAX_N
    small = n <= _assembly.GROUPED_MAX_N  # runs of _QUADRANT_RUN, each cheap
    length = _QUADRANT_RUN if small else 1  # row sets a run: set by the first run's cost
    passes = 0  # set by the first run: _WARM_PASSES where a run is cheap, else 1
    timer = threading.Timer(deadline - time.perf_counter(), stop.__setitem__, (0, 1))
    timer.start()
    try:
        places = _places(population, rng)
        starts = list(itertools.accumulate(sizes, initial=0))
        while not stop[0] and len(per_set) < population:
            place = next(places)
            index = bisect.bisect_right(starts, place) - 1
            first = place - starts[index]
            end = min(sizes[index], first + length)
            subproblem = _assembly.RowSets(index, first, end)
            for done in itertools.count(1):
                clock = time.thread_time()
                value = _assembly.count_subproblems(quarter, jobs, [subproblem], stop, per_thread)[
                    0
                ]
                cost = time.thread_time() - clock
                if not passes:
                    cheap = cost < budget * _WARM_SHARE or not small
                    passes = _WARM_PASSES if warm and cheap else 1
                    if not small:
                        # runs (all their passes) of about a hundredth of what is left:
                        # enough of them to measure a pace whose runs' costs spread widely
                        wanted = (deadline - began - build) / _RUNS_WANTED / passes
                        length = max(1, min(_QUADRANT_RUN, int(wanted / max(cost, 1e-6))))
                if stop[0] or done >= passes:
                    break
            if stop[0]:  # cut short: its count is partial
                break
            per_set.append(cost / (end - first))
            found, spent = found + value, spent + cost
            if (
                len(per_set) % _RUNS_WANTED == 0
                and _WHOLE_SHARE * (build + population * sum(per_set) / len(per_set))
                <= deadline - time.perf_counter()
            ):
                break  # the count itself fits in what is left: the caller counts it
    finally:
        timer.cancel()
    if len(per_set) < min(_PACE_RUNS, population):
        return None
    seconds, error = _sample_total(per_set, population, 0.0)
    return _Pace(build + seconds, error, build, per_set, population, found / spent if spent else 0)


def _places(population: int, rng: random.Random) -> Iterator[int]:
    # Where the runs start, over all the jobs' row sets laid end to end: first a
    # systematic sample, _RUNS_WANTED places a share of the population apart from a
    # random offset, taken in a random order, then places at random.  Each place is
    # uniform, so the mean stays unbiased whenever the sample is cut short; and the
    # cost of a row set follows its rank (whole stretches cost next to nothing), so
    # places spread evenly give a steadier mean than as many drawn at random.
    step = population / _RUNS_WANTED
    offset = rng.random() * step
    grid = [min(population - 1, int(offset + k * step)) for k in range(_RUNS_WANTED)]
    rng.shuffle(grid)
    yield from grid
    while True:
        yield rng.randrange(population)


def _reliable(pace: _Pace) -> bool:
    return len(pace.per_set) >= min(_RELIABLE_RUNS, pace.population) and (
        pace.error <= _RELIABLE_ERROR * pace.seconds
    )


def _quadrant_range(
    n: int, solutions: float, budget: float, rng: random.Random
) -> tuple[float, float, float, int]:
    # (low, high, the budget that measures the pace at n, the reference board): from
    # the pace of a smaller board of n's parity that a quarter of the budget measures
    # reliably: n - 4 first (its table is built in a hundredth of n's time, and leaves
    # time for enough runs), then n - 2, then smaller; (0, 0, 0, 0) where none is
    share = max(budget / 4, 0.25)
    boards = [m for m in (n - 4, n - 2, *range(n - 6, 0, -2)) if m >= QUADRANTS_MIN_N]
    for m in boards:
        pace = _quadrant_pace(m, share, rng)
        if pace is not None and pace.rate > 0 and _reliable(pace):
            break
    else:
        return 0.0, 0.0, 0.0, 0
    build = pace.build * _BUILD_GROWTH ** ((n - m) / 2)
    low = build + solutions / (pace.rate * _PACE_FASTER)
    high = build + solutions / (pace.rate * _PACE_SLOWER)
    population = sum(_assembly.row_sets(j) for j in _assembly.jobs(n))
    per_set = (math.sqrt(low * high) - build) / population
    needed = (1.5 * build + 2 * _RUNS_WANTED * per_set) / (1 - _PROBE_SHARE_QUADRANTS)
    return low, high, _round_up(min(needed, MAX_BUDGET)), m


def _round_up(value: float) -> float:
    # one significant digit, up: 3.2 -> 4, 14 -> 20
    if value <= 0:
        return 0.0
    scale = 10.0 ** math.floor(math.log10(value))
    return float(math.ceil(value / scale) * scale)


def _row_range(solutions: float, budget: float) -> tuple[float, float, int]:
    # (low, high, the reference board): `solutions` counted row by row at the core's
    # pace on a whole smaller board (the largest up to _ROW_REFERENCE_N that a share
    # of the budget counts), and as much slower or faster as it may be there
    most = _ROW_REFERENCE_N[0] if _select.IMPLEMENTATION == "cython" else _ROW_REFERENCE_N[1]
    spent, m, rate = 0.0, 8, 0.0
    while True:
        clock = time.thread_time()
        found = int(_select.bitsolver.count_solutions(m, bytearray(1)))
        took = max(time.thread_time() - clock, 1e-9)
        spent, rate = spent + took, found / took
        # the next board takes about 6 times as long
        if m >= most or spent + 6 * took > budget / 4:
            return solutions / (rate * _ROW_FASTER), solutions / (rate * _ROW_SLOWER), m
        m += 1


class _Sample:
    """The probes' values as they come, in constant memory: their count, mean and
    spread (Welford's updates), and up to _KEPT of them drawn at random (a reservoir)
    for the cluster's simulation."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng
        self.size = 0
        self.sum = 0.0  # (exact for counts below 2**53: an exact estimate's total)
        self.mean = 0.0
        self.squares = 0.0  # the sum of squared deviations from the mean
        self.nonzero = False
        self.kept: list[float] = []

    def __len__(self) -> int:
        return self.size

    def add(self, value: float) -> None:
        self.size += 1
        self.sum += value
        delta = value - self.mean
        self.mean += delta / self.size
        self.squares += delta * (value - self.mean)
        self.nonzero = self.nonzero or value != 0
        if self.rng is None:
            return
        if len(self.kept) < _KEPT:
            self.kept.append(value)
        else:
            slot = self.rng.randrange(self.size)
            if slot < _KEPT:
                self.kept[slot] = value

    def total(self, population: int, share: float) -> tuple[float, float]:
        """As _sample_total() of every value added."""
        if share >= 1:
            return self.sum, 0.0
        if self.size < 2:
            return population * self.mean, math.inf
        variance = self.squares / (self.size - 1)
        return population * self.mean, population * math.sqrt((1 - share) * variance / self.size)


_KEPT = 10_000  # the probes' times kept for a cluster's simulation


def _sample_total(values: list[float], population: int, share: float) -> tuple[float, float]:
    # the estimate of a total over `population` subproblems from a sample of them (their
    # share, when each was counted whole: its error shrinks to 0 as it reaches 1)
    if share >= 1:
        return float(sum(values)), 0.0
    mean = sum(values) / len(values)
    if len(values) < 2:
        return population * mean, math.inf
    variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return population * mean, population * math.sqrt((1 - share) * variance / len(values))


_YEAR = 365.25 * 86400
_MILLION_YEARS = 10**6 * _YEAR


def duration_text(seconds: float) -> str:
    """A duration in the largest unit that keeps it readable (under 10 ms, in
    milliseconds or microseconds rather than a power of ten).

    >>> duration_text(0.61), duration_text(42), duration_text(600), duration_text(86400 * 3)
    ('0.61 seconds', '42 seconds', '10 minutes', '3 days')
    >>> duration_text(0.0011), duration_text(2.4e-05), duration_text(0.000999), duration_text(0)
    ('1.1 milliseconds', '24 microseconds', '1 millisecond', '0 seconds')
    >>> duration_text(4e12), duration_text(1e60), duration_text(float("inf"))
    ('126,752 years', 'more than a million years', 'more than a million years')
    """
    if seconds >= _MILLION_YEARS:
        return "more than a million years"
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
