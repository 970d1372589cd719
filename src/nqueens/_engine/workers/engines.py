"""How units reach the workers: one engine for each kind of ``workers`` count() is given.

The units reach the workers by the engine's own submission where it has one: a Dask
``Client`` (``Client.map`` and ``as_completed``), a ``concurrent.futures`` executor
(``submit``, ``as_completed``: a ``ProcessPoolExecutor``, Dask's ``get_executor()``,
``mpi4py.futures.MPIPoolExecutor``), a pool with ``imap_unordered``
(``multiprocessing.Pool``, Ray's ``Pool``), passed themselves or as their bound
``map``; results are taken as they arrive.  Any other map-like callable is called as
``workers(count_unit, units)`` in calls of several units, one call ahead (the next
call's units are submitted before this call's results are read).  A process pool that
forks its processes at its first submit is served by the ledger instead (ledger.py).
"""

from __future__ import annotations

import contextlib
import itertools
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from ..._validate import is_engine, short_repr
from .messages import BrokenWorkers, ExecutorError, Unit, count_numbered, count_unit, parse


def forks_at_submit(workers: object) -> bool:
    """Whether `workers` (or the pool of its bound map) is a process pool that forks
    its processes from this process at its next submit (the standard library's
    ProcessPoolExecutor on the "fork" start method, before its first subproblem): what
    this process holds then, they hold too."""
    engine = engine_for(workers)
    pool = engine.executor if isinstance(engine, Futures) else None
    # the pool's own attributes, read with care (private: anything else says False)
    context = getattr(pool, "_mp_context", None)
    if context is None or getattr(pool, "_processes", None) != {}:
        return False
    try:
        return bool(context.get_start_method() == "fork")
    except Exception:  # another pool's context: no promise
        return False


@contextlib.contextmanager
def claimed_fork(workers: object) -> Iterator[bool]:
    """Whether this count forks the processes of `workers` (forks_at_submit), held
    for the count: two counts that share a pool yet to fork cannot both count on
    what they hold at the fork (the second one's would be made after it): the first
    claims the fork, and any other meanwhile takes the pool as one that forked."""
    engine = engine_for(workers)
    pool = engine.executor if isinstance(engine, Futures) else None
    while True:
        with _claims_lock:
            other = pool is not None and id(pool) in _claims
            claimed = pool is not None and not other and forks_at_submit(pool)
            if claimed:
                _claims.add(id(pool))
        if not (other and forks_at_submit(pool)):
            break
        # another count holds the fork and has not made it yet: whatever this count
        # submits now could fork the processes before that count's ledger exists
        time.sleep(_CLAIM_WAIT)
    try:
        yield claimed
    finally:
        if claimed:
            with _claims_lock:
                _claims.discard(id(pool))


_claims: set[int] = set()  # the pools (by id) whose fork a count has claimed
_CLAIM_WAIT = 0.05  # seconds between two looks at a pool another count forks
_claims_lock = threading.Lock()


# -- the engines ---------------------------------------------------------------------


UNIT_COST = 0.01
"""What a unit costs on a cluster's engine (Dask's, and the default), in seconds: the
engine's own (Dask: 3.7 ms for a no-op) and the worker's (what n = 19 took more on two
Dask workers with 160 units than with 20)."""


class Engine:
    """How units reach the workers: stream() yields (payload position, answer) as
    answers arrive, for the payloads of every call in `calls`, taken one by one
    (the next call's payloads are made while the first round counts: an engine
    with a size takes every call before it hands on an answer)."""

    size: int | None = None  # how many workers, where the engine says
    cost = UNIT_COST
    shared = False  # units through shared memory, next to free: no first round, no pace

    def __init__(self, name: str) -> None:
        self.name = name

    def stream(self, calls: Iterable[Sequence[int]], payloads: Sequence[Unit]) -> Iterator[Any]:
        raise NotImplementedError

    def broken(self, exc: BaseException) -> BrokenWorkers:
        reason = str(exc).splitlines()[0] if str(exc) else ""
        return BrokenWorkers(
            f"workers {self.name} stopped: {type(exc).__name__}"
            + (f" ({reason})" if reason else "")
            + "; what they finished is kept (with a journal, the same call resumes from it)"
        )


def is_broken(exc: BaseException) -> bool:
    # a pool whose process died, a Dask task whose workers kept dying, or a unit
    # cancelled by someone else than count() (a Dask cluster closed or restarted
    # mid-count, an executor shut down with cancel_futures): count() cancels only
    # the units of a stream it has left, whose answers it no longer reads
    names = {cls.__name__ for cls in type(exc).__mro__}
    futures = sys.modules.get("concurrent.futures")  # loaded: it made the executor
    return (futures is not None and isinstance(exc, futures.BrokenExecutor)) or bool(
        {"KilledWorker", "CancelledError"} & names
    )


class Futures(Engine):
    """A concurrent.futures executor: every unit submitted at once, taken as it ends."""

    cost = 0.002

    def __init__(self, executor: Any, name: str) -> None:
        super().__init__(name)
        self.executor = executor
        size = getattr(executor, "num_workers", None)  # mpi4py's MPIPoolExecutor
        if not isinstance(size, int):
            size = getattr(executor, "_max_workers", None)  # the standard library's pools
        self.size = size if isinstance(size, int) and size > 0 else None

    def stream(self, calls: Iterable[Sequence[int]], payloads: Sequence[Unit]) -> Iterator[Any]:
        flight: dict[Any, int] = {}
        try:
            try:
                for call in calls:
                    for position in call:
                        flight[self.executor.submit(count_unit, payloads[position])] = position
                import concurrent.futures  # imported by whoever made the executor

                for future in concurrent.futures.as_completed(list(flight)):
                    position = flight.pop(future)
                    yield position, future.result()
            except Exception as exc:
                if is_broken(exc):
                    raise self.broken(exc) from None
                raise
        finally:
            for future in flight:
                future.cancel()


class Dask(Engine):
    """A Dask Client: Client.map over every unit, taken with as_completed."""

    def __init__(self, client: Any, name: str) -> None:
        super().__init__(name)
        self.client = client
        try:
            size = sum(int(k) for k in client.nthreads().values())
        except Exception:  # a client that cannot say: the default for an unknown size
            size = 0
        self.size = size or None

    def stream(self, calls: Iterable[Sequence[int]], payloads: Sequence[Unit]) -> Iterator[Any]:
        from distributed import as_completed

        futures: list[Any] = []
        flight: dict[Any, int] = {}
        try:
            try:
                for call in calls:
                    batch = self.client.map(count_unit, [payloads[p] for p in call], pure=False)
                    futures.extend(batch)
                    flight.update((future.key, p) for future, p in zip(batch, call))
                for future in as_completed(futures):
                    position = flight.pop(future.key)
                    answer = future.result()
                    future.release()
                    yield position, answer
            except Exception as exc:
                if is_broken(exc):
                    raise self.broken(exc) from None
                raise
        finally:
            left = [future for future in futures if future.key in flight]
            if left:
                # (a stream dropped after its client closed has nothing left to cancel:
                # the closed client says so by raising)
                with contextlib.suppress(Exception):
                    self.client.cancel(left)


class Pool(Engine):
    """A pool with imap_unordered (multiprocessing's, Ray's): numbered units."""

    cost = 0.002

    def __init__(self, pool: Any, name: str) -> None:
        super().__init__(name)
        self.pool = pool
        size = getattr(pool, "_processes", None)  # multiprocessing.Pool
        self.size = size if isinstance(size, int) and size > 0 else None

    def stream(self, calls: Iterable[Sequence[int]], payloads: Sequence[Unit]) -> Iterator[Any]:
        # a call is handed on as soon as it is planned (the first round counts while
        # the rest is planned); the pool keeps each call's answers until they are
        # taken, call by call (a later call's answers wait for the last of the one before:
        # about a unit, as the pool hands out units in order)
        try:
            waiting = [
                self.pool.imap_unordered(count_numbered, [(p, payloads[p]) for p in call])
                for call in calls
            ]
            for answer in itertools.chain.from_iterable(waiting):
                if not (
                    isinstance(answer, tuple)
                    and len(answer) == 2
                    and type(answer[0]) is int
                    and 0 <= answer[0] < len(payloads)
                ):
                    raise ExecutorError(
                        f"workers {self.name} returned {short_repr(answer)}, not a numbered result"
                    )
                yield answer
        except Exception as exc:
            if is_broken(exc):
                raise self.broken(exc) from None
            raise


class Map(Engine):
    """Any map-like callable: workers(count_unit, units), a call at a time, one ahead;
    results are matched to their units by their subproblems."""

    def __init__(self, func: Callable[..., Iterable[Any]], name: str) -> None:
        super().__init__(name)
        self.func = func

    def stream(self, calls: Iterable[Sequence[int]], payloads: Sequence[Unit]) -> Iterator[Any]:
        flight = None
        for call in calls:
            upcoming = self._send(call, payloads)
            if flight is not None:
                yield from self._take(*flight)
            flight = upcoming
        if flight is not None:
            yield from self._take(*flight)

    def _send(self, call: Sequence[int], payloads: Sequence[Unit]) -> tuple[dict[int, int], Any]:
        owner = {payloads[p].indices[0]: p for p in call}
        try:
            return owner, self.func(count_unit, [payloads[p] for p in call])
        except Exception as exc:
            if is_broken(exc):
                raise self.broken(exc) from None
            raise

    def _take(self, owner: dict[int, int], answers: Any) -> Iterator[Any]:
        try:
            answers = iter(answers)
        except TypeError:
            raise ExecutorError(
                f"workers {self.name} returned {type(answers).__name__}, not an iterable of results"
            ) from None
        seen: set[int] = set()
        try:
            for answer in answers:
                indices = parse(self.name, answer)[3]
                if not indices or indices[0] not in owner:
                    raise ExecutorError(
                        f"workers {self.name} returned a result for a subproblem it was not given"
                    )
                position = owner[indices[0]]
                if position in seen:
                    raise ExecutorError(
                        f"workers {self.name} returned the result of subproblem {indices[0]} twice"
                    )
                seen.add(position)
                yield position, answer
        except ExecutorError:
            raise
        except Exception as exc:
            if is_broken(exc):
                raise self.broken(exc) from None
            raise
        if len(seen) < len(owner):
            raise ExecutorError(
                f"workers {self.name} returned no result for {len(owner) - len(seen)} of the "
                f"{len(owner)} units it was given: it dropped some"
            )


def engine_for(workers: Any) -> Engine:
    """The engine behind `workers`: a Dask Client, an executor or a pool, passed
    itself or as its bound ``map``, or any other map-like callable."""
    name = describe(workers)
    owner = getattr(workers, "__self__", None)
    target = owner if owner is not None and getattr(workers, "__name__", "") == "map" else workers
    if target is not workers or is_engine(target):
        kind = type(target)
        if kind.__name__ == "Client" and kind.__module__.split(".")[0] == "distributed":
            return Dask(target, name)
        # concurrent.futures is imported here only if the caller made an executor
        futures = sys.modules.get("concurrent.futures")
        if (futures is not None and isinstance(target, futures.Executor)) or callable(
            getattr(target, "submit", None)
        ):
            return Futures(target, name)
        if callable(getattr(target, "imap_unordered", None)):
            return Pool(target, name)
    if not callable(workers):
        raise TypeError(
            f"workers must be a number of threads, a map-like callable, an executor or a Dask "
            f"Client, not {type(workers).__name__}"
        )
    return Map(workers, name)


def describe(pool: Any) -> str:
    return short_repr(getattr(pool, "__qualname__", None) or pool)
