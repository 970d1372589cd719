"""Counting on Ray and on MPI, like on Dask: exact, unique, journalled, interrupted and
resumed; and the command line's --dask and --mpi.

Ray runs on a local instance started here (two CPUs, no dashboard); MPI on
the processes of `mpiexec -n 3 python -m mpi4py.futures`, with the MPI
runtime from PyPI (the [mpi] extra). Where an extra is missing these tests
skip and say so; CI installs both and sets NQUEENS_CLUSTER_TESTS=required,
which turns every such skip into a failure.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import nqueens
from nqueens._oeis import A000170, A002562

REQUIRED = os.environ.get("NQUEENS_CLUSTER_TESTS") == "required"


def need(module: str, extra: str):
    try:
        found = pytest.importorskip(module, reason=f"the [{extra}] extra is not installed")
        if getattr(found, "__file__", None) is None:  # a bare folder of that name, say /tmp/ray
            pytest.skip(f"the [{extra}] extra is not installed ({module} is a bare folder)")
    except pytest.skip.Exception:
        if REQUIRED:
            pytest.fail(f"NQUEENS_CLUSTER_TESTS=required, but {module} cannot be imported")
        raise
    return found


class Interrupting:
    """A map-like that passes units to `pool_map` and raises KeyboardInterrupt, as
    Ctrl-C would, once `calls` calls have returned; counts the subproblems it sent."""

    def __init__(self, pool_map, calls=None):
        self.pool_map, self.calls, self.subproblems = pool_map, calls, 0

    def __call__(self, func, units):
        if self.calls is not None:
            if self.calls == 0:
                raise KeyboardInterrupt
            self.calls -= 1
        units = list(units)
        self.subproblems += sum(len(unit.subproblems) for unit in units)
        return self.pool_map(func, units)


def exact_unique_and_resumed(pool_map, tmp_path, journal_rows):
    """The checks every cluster passes."""
    assert nqueens.count(13, workers=pool_map) == A000170[13]
    assert nqueens.count(12, workers=pool_map, unique=True) == A002562[12]
    assert nqueens.count(12, workers=pool_map, recount=1.0) == A000170[12]  # all counted twice
    # the resume sends only what is left (recount=0: no unit is sent twice to check it)
    path = tmp_path / "count.sqlite"
    first = Interrupting(pool_map, calls=2)
    with pytest.raises(KeyboardInterrupt):
        nqueens.count(14, workers=first, journal=path, depth=2, recount=0)
    done = journal_rows(path)
    total = len(nqueens.subproblems(14, depth=2))
    assert 0 < done <= first.subproblems < total  # the call in flight when interrupted is lost
    again = Interrupting(pool_map)
    assert nqueens.count(14, workers=again, journal=path, depth=2, recount=0) == A000170[14]
    assert again.subproblems == total - done
    assert nqueens.count(14, workers=again, journal=path, depth=2, unique=True) == A002562[14]
    assert again.subproblems == total - done  # complete: answered from the journal


# Ray


@pytest.fixture(scope="module")
def ray_pool():
    ray = need("ray", "ray")
    from ray.util.multiprocessing import Pool

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        with Pool(2) as pool:
            yield pool
    finally:
        ray.shutdown()


def test_ray_counts_exactly_and_resumes(ray_pool, tmp_path, journal_rows):
    exact_unique_and_resumed(ray_pool.map, tmp_path, journal_rows)


def test_a_ray_pool_passed_itself(ray_pool):
    from nqueens._engine.workers.engines import Pool, engine_for

    assert type(engine_for(ray_pool)) is Pool
    assert nqueens.count(14, workers=ray_pool, recount=1.0) == A000170[14]


# MPI

MPI_SCRIPT = textwrap.dedent(
    """
    import sqlite3
    import sys
    from pathlib import Path

    from mpi4py.futures import MPIPoolExecutor


    def journal_rows(path):
        with sqlite3.connect(path) as db:
            return db.execute("SELECT COUNT(*) FROM done").fetchone()[0]

    # the workers import this script too, under another name: only rank 0 checks
    if __name__ == "__main__":
        sys.path.insert(0, sys.argv[2])
        from test_clusters import exact_unique_and_resumed

        with MPIPoolExecutor() as pool:
            exact_unique_and_resumed(pool.map, Path(sys.argv[1]), journal_rows)
        print("MPI checks passed")
    """
)


def mpiexec(*args, timeout=300):
    need("mpi4py", "mpi")
    launcher = shutil.which("mpiexec", path=os.path.dirname(sys.executable)) or shutil.which(
        "mpiexec"
    )
    if launcher is None:
        if REQUIRED:
            pytest.fail("NQUEENS_CLUSTER_TESTS=required, but no mpiexec is found")
        pytest.skip("no mpiexec: the [mpi] extra installs MPICH's")
    return subprocess.run(
        [launcher, "-n", "3", sys.executable, "-m", "mpi4py.futures", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_mpi_counts_exactly_and_resumes(tmp_path):
    script = tmp_path / "mpi_checks.py"
    script.write_text(MPI_SCRIPT)
    result = mpiexec(str(script), str(tmp_path), os.path.dirname(__file__))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "MPI checks passed" in result.stdout


def test_cli_mpi_counts_with_a_journal_and_resumes_it(tmp_path, journal_rows):
    path = tmp_path / "c.sqlite"
    args = ["-m", "nqueens", "count", "13", "--mpi", "--journal", str(path), "--depth", "1"]
    result = mpiexec(*args)
    assert (result.returncode, result.stdout, result.stderr) == (0, f"{A000170[13]}\n", "")
    assert journal_rows(path) == len(nqueens.subproblems(13, depth=1))
    result = mpiexec(*args, "--unique")
    assert (result.returncode, result.stdout) == (0, f"{A002562[13]}\n")


def test_cli_mpi_outside_an_mpi_launch_says_how(cli):
    need("mpi4py", "mpi")
    result = cli("count", "10", "--mpi")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "nqueens count: --mpi runs under MPI with worker processes: "
        "mpiexec -n K python -m mpi4py.futures -m nqueens count N --mpi"
    ]


# Dask workers that die


@pytest.mark.native
@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="kill -9 is POSIX")
def test_a_dask_worker_killed_at_a_random_moment_costs_only_its_units(dask_client, patience):
    import random
    import signal
    import threading

    rng = random.Random()
    landed = []  # the kills that came before their count ended

    def kill(pid):
        os.kill(pid, signal.SIGKILL)
        landed.append(pid)

    for _ in range(5):
        # a killed worker's nanny starts another: slowly on a busy machine
        dask_client.wait_for_workers(2, timeout=patience(60))
        pids = list(dask_client.run(os.getpid).values())
        victim, moment = rng.choice(pids), rng.uniform(0.0, 0.8)
        killer = threading.Timer(moment, kill, (victim,))
        killer.start()
        try:
            assert nqueens.count(18, workers=dask_client) == A000170[18], moment
        finally:
            killer.cancel()
            killer.join()
    assert len(landed) >= 3, f"only {len(landed)} of 5 kills came mid-count"


# Dask from the command line


def test_cli_dask_local_counts_with_a_journal_and_progress(cli, tmp_path, journal_rows):
    need("dask.distributed", "dask")
    path = tmp_path / "c.sqlite"
    command = ["count", "13", "--dask", "local"]
    result = cli(*command, "--journal", str(path), "--progress")
    assert (result.returncode, result.stdout) == (0, f"{A000170[13]}\n"), result.stderr
    assert "100%" in result.stderr  # the bar reached its end
    assert journal_rows(path) > 0
    result = cli(*command, "--journal", str(path), "--unique")
    assert (result.returncode, result.stdout) == (0, f"{A002562[13]}\n"), result.stderr


def test_cli_dask_scheduler_out_of_reach_exits_2_with_one_line(cli):
    need("dask.distributed", "dask")
    result = cli("count", "10", "--dask", "tcp://127.0.0.1:9", timeout=120)
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "--dask tcp://127.0.0.1:9: cannot reach the scheduler" in lines[0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--dask", "local", "--mpi"], "--dask and --mpi cannot go together"),
        (["--dask", "local", "--workers", "2"], "--workers cannot go with it"),
        (["--dask", "local", "--solver", "bitmask"], "--dask applies to the native core only"),
        (["--dask", " "], "--dask takes a scheduler's address"),
        (["--units", "4"], "--units applies to --dask and --mpi"),
        (["--dask", "local", "--units", "0"], "units must be a positive int"),
    ],
)
def test_cli_cluster_usage_errors(cli, args, message):
    result = cli("count", "10", *args)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and message in result.stderr, result.stderr


def test_cli_without_the_extra_names_it(monkeypatch, capsys):
    from nqueens import cli

    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    monkeypatch.setitem(sys.modules, "mpi4py", None)
    assert cli.main(["count", "10", "--dask", "local"]) == 2
    assert cli.main(["count", "10", "--mpi"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "nqueens count: --dask needs the [dask] extra: pip install 'nqueens-count[dask]'",
        "nqueens count: --mpi needs the [mpi] extra: pip install 'nqueens-count[mpi]'",
    ]


def other_release() -> None:  # run on each worker: it now says it is another release
    import nqueens._version

    nqueens._version.__version__ = "0.0.9"


def test_cli_dask_workers_of_another_release_exit_1_with_one_line(cli, dask_client):
    dask_client.run(other_release)
    result = cli("count", "16", "--dask", dask_client.scheduler.address)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.count("\n") == 1, result.stderr
    assert "run one release on every worker" in result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("moment", [0.3, 0.6])
def test_cli_sigterm_while_a_local_cluster_starts_gives_one_line(moment):
    need("dask.distributed", "dask")
    process = subprocess.Popen(
        [sys.executable, "-m", "nqueens", "count", "17", "--dask", "local"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(moment)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=300)
    assert (process.returncode, out, err) == (143, "", "nqueens: terminated\n")


@pytest.mark.native  # count(18) through the twin would take the whole run
@pytest.mark.slow
def test_a_dask_cluster_closed_mid_count_stops_it_and_a_new_cluster_resumes(
    tmp_path, journal_rows, patience
):
    # the recipe of docs/howto/cluster.md: the journal lives with the client, so a
    # count survives the restart of the whole cluster
    import threading

    distributed = need("dask.distributed", "dask")
    path = tmp_path / "n18.sqlite"

    def cluster():
        return distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
            dashboard_address=":0", silence_logs=50,
        )  # fmt: skip

    outcome: dict = {}
    first = cluster()
    client = distributed.Client(first)
    try:

        def run():
            try:
                outcome["total"] = nqueens.count(18, workers=client, journal=path, units=64)
            except BaseException as exc:  # what the count raised, for the test to read
                outcome["error"] = exc

        counting = threading.Thread(target=run)
        counting.start()
        deadline = time.monotonic() + patience(120)
        while journal_rows(path) < 8 and counting.is_alive() and time.monotonic() < deadline:
            time.sleep(0.005)
        first.close()
        counting.join(patience(120))
        assert not counting.is_alive()
    finally:
        client.close()
        first.close()
    if "total" in outcome:  # the count outran the closing: nothing to resume
        pytest.skip("the count ended before the cluster closed")
    error = outcome["error"]
    assert isinstance(error, nqueens.BrokenWorkers), repr(error)
    assert "stopped: " in str(error) and len(str(error).splitlines()) == 1
    kept = journal_rows(path)
    assert kept > 0
    with cluster() as second, distributed.Client(second) as again:
        assert nqueens.count(18, workers=again, journal=path, units=64) == A000170[18]
    assert journal_rows(path) > kept
