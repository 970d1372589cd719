"""Run independent subproblems on threads that each call the GIL-free core.

Threads take the next subproblem as they finish the last, so none idles while
work is left, and hand each result back to the calling thread, which does
the bookkeeping (journal, progress).  The calling thread only ever waits in
short slices, so that Ctrl-C reaches it at once; it then raises the stop
flag that the core polls, and the workers give up within a fraction of a
second.
"""

from __future__ import annotations

import collections
import contextlib
import threading
from collections.abc import Iterator, Sequence
from typing import Callable, TypeVar

T = TypeVar("T")

WAIT_SLICE = 0.05
"""How long a waiting thread sleeps at a time, in seconds: a Ctrl-C is honoured within it."""


def run_subproblems(
    func: Callable[[Sequence[T], bytearray], list[int]],
    subproblems: Sequence[T],
    workers: int,
    each: bool = True,
    starts: Sequence[int] | None = None,
) -> Iterator[tuple[int, int]]:
    """Yield (index, result) for every subproblem, in the order they finish, where
    func(subproblems[i:j], stop) gives the results of a run of neighbouring subproblems:
    from each of `starts` (default: every subproblem) to the next.  The core
    reuses work within a run, and releases the GIL once for it.

    With each=False, yield (-1, subtotal) once per thread instead: the sum of
    its subproblems' results, without a hand-off to the caller per subproblem.
    """
    stop = bytearray(1)
    # The workers hand their results over without waiting on anything the calling
    # thread holds: they append to a deque (one step, no lock of Python's) and
    # release `wake`, which only the calling thread acquires.  A Ctrl-C that lands
    # in the calling thread as it takes a lock can leave that lock held (a `with`
    # entered, its exit never run: bpo-29988); with a queue.Queue that lock was the
    # queue's, a worker then waited on it forever, and so did the calling thread
    # on the worker (seen once in CI, in the pure-Python twin).
    finished: collections.deque[tuple[int, int] | BaseException | None] = collections.deque()
    wake = threading.Lock()
    wake.acquire()
    lock = threading.Lock()  # the workers' own, for the next run of subproblems
    bounds = list(range(len(subproblems))) if starts is None else list(starts)
    pending = iter(zip(bounds, [*bounds[1:], len(subproblems)]))

    def hand(item: tuple[int, int] | BaseException | None) -> None:
        finished.append(item)
        with contextlib.suppress(RuntimeError):  # released already: not looked at yet
            wake.release()

    def work() -> None:
        subtotal = 0
        try:
            while not stop[0]:
                with lock:
                    first, end = next(pending, (None, None))
                if first is None:
                    if not each:
                        hand((-1, subtotal))
                    return
                results = func(subproblems[first:end], stop)
                if stop[0]:  # a stopped search returns partial counts
                    return
                if each:
                    for i, result in enumerate(results, first):
                        hand((i, result))
                else:
                    subtotal += sum(results)
        except BaseException as exc:  # handed to the caller below
            stop[0] = 1
            hand(exc)
        finally:
            hand(None)  # this thread is done

    threads = [
        threading.Thread(target=work, name=f"nqueens-{k}", daemon=True)
        for k in range(max(1, min(workers, len(subproblems))))
    ]
    running = 0
    try:
        for thread in threads:
            thread.start()
            running += 1
        while running:
            while finished:
                item = finished.popleft()
                if item is None:
                    running -= 1
                elif isinstance(item, BaseException):
                    raise item
                else:
                    yield item
            if running:
                wake.acquire(timeout=WAIT_SLICE)
    finally:
        stop[0] = 1
        # the workers stop within moments, each handing over None as it ends:
        # none outlives the call, even through another Ctrl-C (raised once they
        # are done)
        pressed: BaseException | None = None
        while running:
            try:
                while running and finished:
                    if finished.popleft() is None:
                        running -= 1
                if running:
                    wake.acquire(timeout=WAIT_SLICE)
            except KeyboardInterrupt as exc:
                pressed = exc
        for thread in threads:
            if thread.ident is None:  # (never started)
                continue
            try:
                thread.join()  # each has handed over its None: a matter of moments
            except KeyboardInterrupt as exc:
                pressed = exc
        if pressed is not None:
            raise pressed


class Done:
    """A helper thread's end, set once by it and waited for by the calling thread,
    safe through Ctrl-C (what threading.Event is not).

    Event.set() takes the lock of the Event's condition, and a Ctrl-C that lands
    as the waiting thread enters that lock can leave it held (bpo-29988): the
    helper then waits on it for ever, and so does the calling thread on the
    helper.  Here set() takes no lock at all: it sets a flag and releases `wake`,
    which only waiters acquire, so a lock left held by an interrupted wait holds
    up nobody (the flag answers every later wait).

    >>> done = Done()
    >>> done.wait(0.01), done.is_set()
    (False, False)
    >>> done.set(); done.set()
    >>> done.wait(1.0), done.is_set()
    (True, True)
    """

    def __init__(self) -> None:
        self._flag = False
        self._wake = threading.Lock()
        self._wake.acquire()

    def set(self) -> None:
        """Mark the end (from any thread; never waits)."""
        self._flag = True
        with contextlib.suppress(RuntimeError):  # released already
            self._wake.release()

    def is_set(self) -> bool:
        return self._flag

    def wait(self, timeout: float) -> bool:
        """Whether the end has come, waited for at most `timeout` seconds."""
        if not self._flag and self._wake.acquire(timeout=timeout):
            with contextlib.suppress(RuntimeError):  # for the next wait (set() may race)
                self._wake.release()
        return self._flag


def wait_for(events: Sequence[Done]) -> BaseException | None:
    """Wait until every event is set, in short slices, through Ctrl-C: the last
    KeyboardInterrupt pressed meanwhile is returned (None: none), for the caller
    to raise.  Threads set a Done as they end, rather than being waited for
    with Thread.join(): interrupted, join() in CPython 3.9 to 3.12 can mark a
    thread that is still running as stopped (the bpo-45274 fix), and then
    is_alive() says False."""
    pressed: BaseException | None = None
    for event in events:
        while True:
            try:
                if event.wait(WAIT_SLICE):
                    break
            except KeyboardInterrupt as exc:
                pressed = exc
    return pressed
