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
    from nqueens import _estimate

    ticks = iter(range(10**6))
    monkeypatch.setattr(_estimate.time, "perf_counter", lambda: float(next(ticks)))
    found = nqueens.estimate(n, budget=0.1, workers=workers)
    assert (found.solutions, found.solutions_error, found.exact) == (A000170[n], 0, True)


@pytest.mark.parametrize("n", [15, 16, 17])
def test_probes_estimate_the_count_within_its_error(native_core, n):
    found = nqueens.estimate(n, budget=0.6, seed=n)
    assert 0 < found.solutions_error < 0.1 * found.solutions
    # 5 standard errors: a false alarm about once in 3.5 million runs
    assert abs(found.solutions - A000170[n]) < 5 * found.solutions_error
    assert found.probes > 100
    assert found.seconds > 0 and found.paced  # runs of n <= 17 finish within the budget


@pytest.mark.parametrize("slow", [False, True])
def test_the_pace_times_a_cheap_run_again_once_its_placements_are_kept(
    native_core, monkeypatch, slow
):
    # a whole count uses each north placement of a job many times (the core keeps it
    # from its second use); a run of a few row sets uses each once: so a cheap run is
    # counted three times over, on the same working memory, and timed the last time
    from nqueens import _assembly

    calls = []
    count_tasks = _assembly.count_tasks

    def recorded(quarter, jobs, run, stop, per_thread):
        calls.append((tuple(run), id(per_thread)))
        if slow:
            time.sleep(0.05)  # above a fiftieth of the pace's share of the budget
        return count_tasks(quarter, jobs, run, stop, per_thread)

    monkeypatch.setattr(_assembly, "count_tasks", recorded)
    found = nqueens.estimate(17, budget=1.0, seed=5)
    assert found.paced and len(calls) >= 6
    assert len({memory for _, memory in calls}) == 1
    runs = [run for run, _ in calls]
    if slow:  # a dear run is timed once: each call another run
        assert all(a != b for a, b in zip(runs, runs[1:]))
    else:
        whole = runs[: len(runs) - len(runs) % 3]  # (the last may be cut short)
        for k in range(0, len(whole), 3):
            assert whole[k] == whole[k + 1] == whole[k + 2]
            assert k == 0 or whole[k] != whole[k - 1]


def test_unique_divides_by_the_eight_symmetries(native_core):
    found = nqueens.estimate(16, unique=True, budget=0.4, seed=1)
    assert abs(found.solutions - A002562[16]) < 5 * found.solutions_error + 0.01 * A002562[16]


def test_more_threads_less_time_and_every_call_probes_anew(native_core):
    one = nqueens.estimate(16, budget=0.4, seed=3)
    two = nqueens.estimate(16, workers=2, budget=0.4, seed=3)
    assert two.threads == min(2, available_cores())
    if two.threads == 2:
        assert two.seconds < one.seconds
    again = nqueens.estimate(16, budget=0.4, seed=4)
    assert again.solutions != one.solutions  # other probes, no cached answer


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
    result = run("17", "--workers", "2", "--unique", "--budget", "0.4", "--seed", "5")
    assert result.returncode == 0, result.stderr
    assert "classes of solutions (± " in result.stdout and "on 2 threads here" in result.stdout


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

    from nqueens._makespan import ENGINE_COST, SCHEDULER_COST, simulate

    rng = random.Random(7)
    times = [rng.expovariate(100) for _ in range(500)]  # a skewed sample, as the split's
    work, pieces, built = 120.0, 20_000, 0.5
    for workers in (1, 3, 16, 256, 4096):
        units, makespan = simulate(work, pieces, times, built, workers, rng)
        assert units % min(workers, units) == 0 or units == pieces
        # no schedule beats the work spread evenly, nor the scheduler's pace
        assert makespan >= built + work / workers * (1 - 1e-12)
        assert makespan >= units * SCHEDULER_COST
    # one worker does it all, unit after unit: the work, the table and each unit's cost
    units, makespan = simulate(work, pieces, [0.006], built, 1, rng)
    assert makespan == pytest.approx(built + work + units * ENGINE_COST, rel=1e-9)
    # the units never outnumber the subproblems, nor the pieces
    assert simulate(work, pieces, times, 0.0, 4096, rng, tasks=100)[0] == 100
    assert simulate(work, 50, times, 0.0, 4096, rng)[0] == 50
    assert simulate(0.0, pieces, times, built, 16, rng) == (0, 0.0)


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
    assert "on a cluster of 16 workers, each as fast as one core here" in str(sixteen)
    assert f"{sixteen.units:,} units on Dask" in str(sixteen) and "(simulated; " in str(sixteen)


def test_the_command_simulates_a_cluster():
    result = run("17", "--cluster", "64", "--budget", "0.3", "--seed", "2")
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert "on a cluster of 64 workers" in result.stdout and "efficiency" in result.stdout


def test_a_pace_of_one_run_is_no_pace(native_core, monkeypatch):
    # the cost of a run spreads widely: one cheap run, timed alone, once put count(20)
    # at 0.4 seconds (a slow build under the sanitizers left time for one run)
    from nqueens import _assembly

    count_tasks = _assembly.count_tasks
    calls = []

    def dear(quarter, jobs, run, stop, per_thread):
        calls.append(run)
        time.sleep(0.3)  # two runs outlast the pace's share of the budget
        return count_tasks(quarter, jobs, run, stop, per_thread)

    monkeypatch.setattr(_assembly, "count_tasks", dear)
    found = nqueens.estimate(17, budget=1.0, seed=3)
    assert 1 <= len(calls) <= 2
    assert not found.paced and found.seconds > 0
    assert "too few whole runs finished in time" in str(found)


def test_a_pace_of_the_row_by_row_core_needs_three_runs(native_core, monkeypatch):
    from nqueens import _estimate

    count_run = _estimate.count_run
    calls = []

    def dear(tasks, stop):
        calls.append(len(tasks))
        time.sleep(0.3)  # two runs outlast the pace's share of the budget
        return count_run(tasks, stop)

    monkeypatch.setattr(_estimate, "count_run", dear)
    found = nqueens.estimate(11, budget=1.0, seed=3)  # n = 11 goes row by row
    assert 1 <= len(calls) <= 2
    assert not found.paced and found.seconds > 0


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
