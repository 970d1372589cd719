"""Executors on many machines for the command line: a Dask cluster, or MPI.

Each gives the engine that count(workers=...) takes (a Dask Client, an
MPIPoolExecutor: count() submits the units itself), and closes what it
opened when the count ends.  Every problem (the extra not installed, a
scheduler out of reach, a process not launched under MPI) is a ClusterError
with one line that says what to do, raised before any counting.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from typing import Any

from .._validate import available_cores
from .._version import DISTRIBUTION

CONNECT_TIMEOUT = "10s"
MPI_LAUNCH = "mpiexec -n K python -m mpi4py.futures -m nqueens count N --mpi"


class ClusterError(RuntimeError):
    """The cluster cannot be used; the message says why in one line."""


def _missing(option: str, extra: str) -> ClusterError:
    return ClusterError(
        f"{option} needs the [{extra}] extra: pip install '{DISTRIBUTION}[{extra}]'"
    )


def check_dask() -> None:
    """Raise ClusterError unless Dask's distributed scheduler can be imported."""
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        raise _missing("--dask", "dask") from None


def check_mpi() -> None:
    """Raise ClusterError unless mpi4py is installed and this process is rank 0 of an
    MPI launch with worker processes (mpi4py.futures)."""
    try:
        from mpi4py import MPI
    except ImportError:
        raise _missing("--mpi", "mpi") from None
    if MPI.COMM_WORLD.Get_size() < 2:
        raise ClusterError(f"--mpi runs under MPI with worker processes: {MPI_LAUNCH}")


@contextlib.contextmanager
def dask_client(address: str) -> Iterator[Any]:
    """A Client of a Dask cluster: the scheduler at address, or with "local" a
    LocalCluster of one single-threaded worker process per core of this machine."""
    check_dask()
    from dask import distributed

    cluster = None
    try:
        if address == "local":
            # Ctrl-C or SIGTERM while the workers' processes start is taken once they
            # have: a worker process spawned from a parent that left mid-start prints
            # its own traceback (EOFError) on the terminal
            with _signals_held() as held:
                cluster = distributed.LocalCluster(
                    n_workers=available_cores(),
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address=":0",  # any free port: another cluster may hold 8787
                    silence_logs=40,  # logging.ERROR: logging is not imported for it
                )
                client = distributed.Client(cluster)
            if held:
                client.close()
                cluster.close()
                signal.raise_signal(held[0])  # to the handler that stands again
        else:
            client = distributed.Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as exc:
        if cluster is not None:
            cluster.close()
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ClusterError(f"--dask {address}: cannot reach the scheduler: {reason}") from None
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


@contextlib.contextmanager
def _signals_held() -> Iterator[list[int]]:
    """Ctrl-C and SIGTERM noted, not acted on, while the block runs (in the main
    thread; elsewhere nothing is held); the list names those that came."""
    held: list[int] = []
    previous: dict[int, Any] = {}

    def note(number: int, frame: Any) -> None:
        held.append(number)

    try:
        for which in (signal.SIGINT, signal.SIGTERM):
            if signal.getsignal(which) is not signal.SIG_IGN:  # (ignored: left so)
                previous[which] = signal.signal(which, note)
    except ValueError:  # not the main thread: the signals go to the main one anyway
        pass
    try:
        yield held
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


@contextlib.contextmanager
def mpi_pool() -> Iterator[Any]:
    """The executor of the MPI worker processes this process was launched with."""
    check_mpi()
    from mpi4py.futures import MPIPoolExecutor

    with MPIPoolExecutor() as pool:
        yield pool
