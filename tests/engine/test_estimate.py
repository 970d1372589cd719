"""estimate(): Knuth's random probes on count()'s subproblems, and the core's pace."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

import nqueens
from nqueens._oeis import A000170, A002562
from nqueens._validate import available_cores


@pytest.mark.parametrize("n", range(13))
def test_small_boards_are_counted_whole_so_exactly(n):
    found = nqueens.estimate(n, budget=2)  # time enough for every subproblem, even in Python
    assert (found.solutions, found.solutions_error) == (A000170[n], 0)
    assert found.seconds >= 0


@pytest.mark.parametrize("workers", [1, 16])
@pytest.mark.parametrize("n", range(13))
def test_small_boards_are_exact_however_slow_the_machine(monkeypatch, n, workers):
    # a clock that runs a second a reading: every deadline passes at once (a CI
    # machine once stalled past estimate(8, budget=0.1)'s 50 ms and answered 0.0);
    # 16 threads: n = 12 in Python then has 3,993 subproblems
    from nqueens._engine import estimate as _estimate

    ticks = iter(range(10**6))
    monkeypatch.setattr(_estimate.time, "perf_counter", lambda: float(next(ticks)))
    found = nqueens.estimate(n, budget=0.1, workers=workers)
    assert (found.solutions, found.solutions_error, found.exact) == (A000170[n], 0, True)


@pytest.mark.parametrize("n", [18, 19, 20])
def test_probes_estimate_the_count_within_its_error(native_core, n):
    # (the probes have a quarter of the budget: under the sanitizers, a few hundred)
    found = nqueens.estimate(n, budget=1.0, seed=n)
    assert 0 < found.solutions_error < 0.25 * found.solutions
    # 5 standard errors: a false alarm about once in 3.5 million runs
    assert abs(found.solutions - A000170[n]) < 5 * found.solutions_error
    assert found.probes > 50 and not found.exact
    assert found.seconds > 0


def test_a_count_that_fits_in_the_budget_is_counted_and_timed(native_core):
    # n = 13 takes milliseconds: the estimate is the count itself, on the threads asked
    for workers in (1, 2):
        found = nqueens.estimate(13, budget=1.0, workers=workers)
        assert found.exact and found.solutions == A000170[13] and found.solutions_error == 0
        assert found.seconds > 0 and found.threads == min(workers, available_cores())
        assert str(found).startswith("N = 13: 73,712 solutions (exact); the count about ")


@pytest.mark.parametrize(("n", "passes"), [(19, 3), (18, 1)])
def test_the_pace_times_a_run_again_where_its_placements_are_kept(
    native_core, monkeypatch, n, passes
):
    # a whole count uses each north placement of a job many times (the core keeps it
    # from its second use): on odd boards a run of a few row sets, which uses each
    # once, is counted three times over on the same working memory and timed the last
    # time; even boards beyond the grouped ones gain nothing from it: once
    from nqueens._engine import assembly as _assembly

    calls = []
    count_subproblems = _assembly.count_subproblems

    def recorded(quarter, jobs, run, stop, per_thread):
        calls.append((tuple(run), id(per_thread)))
        return count_subproblems(quarter, jobs, run, stop, per_thread)

    monkeypatch.setattr(_assembly, "count_subproblems", recorded)
    found = nqueens.estimate(n, budget=0.5, seed=5)
    assert found.paced and len(calls) >= 6 and not found.exact
    assert len({memory for _, memory in calls}) == 1
    runs = [run for run, _ in calls]
    whole = runs[: len(runs) - len(runs) % passes]  # (the last may be cut short)
    for k in range(0, len(whole), passes):
        assert all(run == whole[k] for run in whole[k : k + passes])
        assert k == 0 or whole[k] != whole[k - 1]


def test_unique_divides_by_the_eight_symmetries(native_core):
    found = nqueens.estimate(16, unique=True, budget=0.4, seed=1)
    assert abs(found.solutions - A002562[16]) < 5 * found.solutions_error + 0.01 * A002562[16]


def test_more_threads_less_time_and_every_call_probes_anew(native_core):
    one = nqueens.estimate(19, budget=0.4, seed=3)
    two = nqueens.estimate(19, workers=2, budget=0.4, seed=3)
    assert two.threads == min(2, available_cores())
    if two.threads == 2 and one.paced and two.paced:
        assert two.seconds < one.seconds
    again = nqueens.estimate(19, budget=0.4, seed=4)
    assert again.solutions != one.solutions  # other probes, no cached answer


def test_a_board_whose_table_outlasts_the_budget_gets_a_range_and_the_budget_it_needs(
    native_core,
):
    found = nqueens.estimate(22, budget=0.2, seed=1)
    assert not found.paced and not found.exact
    assert found.reference in (20, 18, 16, 14, 12)  # a smaller even board's pace
    assert 0 < found.seconds_low < found.seconds < found.seconds_high
    assert found.budget_needed > 0.2
    text = str(found)
    assert "the count between " in text and f"from its pace at N = {found.reference}" in text
    assert f"a budget of about {found.budget_needed:g} seconds measures it" in text


def test_a_board_beyond_the_quadrants_gets_a_range_from_the_row_by_row_pace(native_core):
    found = nqueens.estimate(30, budget=0.2, seed=1)
    assert not found.paced and 8 <= found.reference <= 15
    assert 0 < found.seconds_low < found.seconds_high
    assert found.seconds_low > 100 * 365.25 * 86400  # Q(30) is beyond any core's reach
    assert "no budget measures count()'s own subproblems at this size" in str(found)
    # the range of the pace (1/8 to 1.5 times the reference's), wider by the solutions'
    # own error (a short budget probes little)
    assert found.solutions_error > 0
    assert found.seconds_high / found.seconds_low > 1.5 * 8 * 1.001


def test_times_beyond_a_million_years_are_said_in_words(native_core):
    text = str(nqueens.estimate(64, budget=0.2, seed=1))
    assert "the count more than a million years on 1 thread" in text
    assert "years" in text and not any(len(word) > 30 for word in text.split()[8:])


def test_the_probes_take_constant_memory():
    import random

    from nqueens._engine.estimate import _KEPT, _Sample, _sample_total

    rng = random.Random(1)
    values = [rng.expovariate(1.0) * (k % 3) for k in range(3 * _KEPT)]
    sample = _Sample(rng)
    for value in values:
        sample.add(value)
    assert len(sample) == len(values) and len(sample.kept) == _KEPT
    assert set(sample.kept) <= set(values)
    for share in (0.0, 0.5):
        mine, theirs = sample.total(10**6, share), _sample_total(values, 10**6, share)
        assert mine == pytest.approx(theirs, rel=1e-9)
    whole = _Sample()
    for k in range(1000):
        whole.add(float(k))
    assert whole.total(1000, 1.0) == (499500.0, 0.0)  # exact, as a count must be
    assert whole.kept == []  # (no reservoir asked for)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"n": -1}, ValueError, "n must be"),
        ({"n": 8.5}, TypeError, "n must be an int"),
        ({"n": 8, "workers": 0}, ValueError, "workers must be"),
        ({"n": 8, "workers": map}, TypeError, "not a map-like"),
        ({"n": 8, "budget": 0}, ValueError, "budget must be above 0"),
        ({"n": 8, "budget": "1"}, TypeError, "budget must be a number"),
        ({"n": 8, "budget": float("inf")}, ValueError, "at most 3600 seconds"),
        ({"n": 8, "budget": float("nan")}, ValueError, "budget must be above 0"),
        ({"n": 8, "budget": 1e9}, ValueError, "at most 3600 seconds"),
        ({"n": 8, "budget": 10**400}, ValueError, "at most 3600 seconds"),
        ({"n": 8, "unique": "yes"}, TypeError, "unique must be"),
        ({"n": 8, "seed": 1.5}, TypeError, "seed must be an int"),
        ({"n": 8, "cluster": 0}, ValueError, "cluster must be 1 to 1,000,000 workers"),
        ({"n": 8, "cluster": 10**6 + 1}, ValueError, "cluster must be 1 to"),
        ({"n": 8, "cluster": 2.0}, TypeError, "cluster must be an int"),
        ({"n": 8, "cluster": 4, "workers": 2}, ValueError, "not both"),
    ],
)
def test_bad_arguments_are_refused_before_any_work(kwargs, error, message):
    n = kwargs.pop("n")
    with pytest.raises(error, match=message):
        nqueens.estimate(n, **kwargs)


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "nqueens", "estimate", *args], capture_output=True, text=True
    )


def test_the_command_prints_one_line():
    result = run("12")
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.startswith("N = 12: 14,200 solutions (exact); the count about ")
    result = run("19", "--workers", "2", "--unique", "--budget", "0.4", "--seed", "5")
    assert result.returncode == 0, result.stderr
    assert (
        "classes of solutions (± " in result.stdout
        and "on 2 threads of this machine" in result.stdout
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["65"], "n must be"),
        (["12", "--workers", "0"], "workers must be"),
        (["12", "--budget", "nan"], "--budget must be above 0"),
        (["12", "--budget", "9999"], "--budget must be above 0"),
        (["12", "--cluster", "0"], "--cluster must be 1 to 1,000,000 workers"),
        (["12", "--cluster", "4", "--workers", "2"], "not both"),
        (["12", "--cluster", "many"], "invalid int value"),
    ],
)
def test_the_command_refuses_bad_arguments_in_one_line(args, message):
    result = run(*args)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and message in result.stderr, result.stderr


# a cluster, simulated


def test_a_simulated_cluster_keeps_the_bounds_of_any_schedule():
    import random

    from nqueens._engine.makespan import ENGINE_COST, SCHEDULER_COST, simulate

    rng = random.Random(7)
    times = [rng.expovariate(100) for _ in range(500)]  # a skewed sample, as the split's
    work, population, built = 120.0, 20_000, 0.5
    for workers in (1, 3, 16, 256, 4096):
        units, makespan = simulate(work, population, times, built, workers, rng)
        assert units % min(workers, units) == 0 or units == population
        # no schedule beats the work spread evenly, nor the scheduler's pace
        assert makespan >= built + work / workers * (1 - 1e-12)
        assert makespan >= units * SCHEDULER_COST
    # one worker does it all, unit after unit: the work, the table and each unit's cost
    units, makespan = simulate(work, population, [0.006], built, 1, rng)
    assert makespan == pytest.approx(built + work + units * ENGINE_COST, rel=1e-9)
    # the units never outnumber the subproblems, nor the items timed
    assert simulate(work, population, times, 0.0, 4096, rng, subproblems=100)[0] == 100
    assert simulate(work, 50, times, 0.0, 4096, rng)[0] == 50
    assert simulate(0.0, population, times, built, 16, rng) == (0, 0.0)


def test_more_workers_finish_sooner_until_the_units_cost_more_than_the_work(native_core):
    found = {k: nqueens.estimate(18, cluster=k, budget=0.4, seed=3) for k in (1, 16, 4096)}
    one, sixteen, many = found[1], found[16], found[4096]
    for guess in found.values():
        assert guess.paced and guess.work > 0 and guess.threads == 1
        assert guess.units >= 4 * min(guess.cluster, 16)  # whole rounds, a few a worker
    # each against its own measure of the work (two estimates measure it apart)
    assert one.seconds >= one.work  # one worker: all of it, and the engine's cost besides
    assert sixteen.work / 16 < sixteen.seconds < sixteen.work / 4

    def efficiency(guess):
        return guess.work / (guess.cluster * guess.seconds)

    assert efficiency(many) < efficiency(sixteen) / 4  # n = 18 is too small for 4,096
    assert "on a cluster of 16 workers, each as fast as one core of this machine" in str(sixteen)
    assert f"{sixteen.units:,} units on Dask" in str(sixteen) and "(simulated; " in str(sixteen)


def test_the_command_simulates_a_cluster():
    result = run("17", "--cluster", "64", "--budget", "0.3", "--seed", "2")
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert "on a cluster of 64 workers" in result.stdout and "efficiency" in result.stdout


def test_a_pace_of_few_runs_is_no_pace(native_core, monkeypatch):
    # the cost of a run spreads widely: a few runs, timed alone, once put count(20) at
    # 0.4 seconds (a slow build under the sanitizers left time for one run); where the
    # runs that finish are too few, the estimate is a range, said to be one
    from nqueens._engine import assembly as _assembly

    count_subproblems = _assembly.count_subproblems
    calls = []

    def dear(quarter, jobs, run, stop, per_thread):
        calls.append(run)
        time.sleep(0.3)  # two runs outlast the pace's share of the budget
        return count_subproblems(quarter, jobs, run, stop, per_thread)

    monkeypatch.setattr(_assembly, "count_subproblems", dear)
    found = nqueens.estimate(17, budget=1.0, seed=3)
    assert not found.paced and not found.exact
    assert 0 < found.seconds_low < found.seconds < found.seconds_high
    assert "the count between " in str(found)


def test_a_pace_of_the_row_by_row_core_needs_three_runs(native_core, monkeypatch):
    from nqueens._engine import estimate as _estimate

    count_run = _estimate.count_run
    calls = []

    def dear(subproblems, stop):
        calls.append(len(subproblems))
        time.sleep(0.6)  # two runs outlast what the probes leave of the budget
        return count_run(subproblems, stop)

    monkeypatch.setattr(_estimate, "count_run", dear)
    found = nqueens.estimate(11, budget=1.0, seed=3)  # n = 11 goes row by row
    assert 1 <= len(calls) <= 2
    assert not found.paced and 0 < found.seconds_low < found.seconds_high
    assert found.exact and found.solutions == A000170[11]  # the count itself is exact


def test_an_exact_count_reads_as_one_not_as_an_estimate():
    # the count itself where every subproblem was counted: no "about", and one solution
    # (or class) and one probe in the singular
    assert str(nqueens.estimate(0)).startswith("N = 0: 1 solution (exact); the count about ")
    assert "(1 probe)" in str(nqueens.estimate(0))
    assert str(nqueens.estimate(1, unique=True)).startswith("N = 1: 1 class of solutions (exact)")
    assert str(nqueens.estimate(3)).startswith("N = 3: 0 solutions (exact)")
    eight = str(nqueens.estimate(8, unique=True))
    assert eight.startswith("N = 8: 12 classes of solutions (exact)")


@pytest.mark.parametrize("n", range(13))
def test_the_classes_of_an_exact_estimate_are_the_count_of_them(n):
    # not the total over 8, which misses the classes that a symmetry keeps (8: 11.5)
    found = nqueens.estimate(n, unique=True)
    assert (found.solutions, found.solutions_error, found.exact) == (A002562[n], 0, True)
