"""Run independent tasks on threads that each call the GIL-free core.

Threads take the next task as they finish the last, so none idles while
work is left, and hand each result back to the calling thread, which does
the bookkeeping (journal, progress).  The calling thread only ever waits in
short slices, so that Ctrl-C reaches it at once; it then raises the stop
flag that the core polls, and the workers give up within a fraction of a
second.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator, Sequence
from typing import Callable, TypeVar

T = TypeVar("T")

_WAIT_SLICE = 0.05


def run_tasks(
    func: Callable[[Sequence[T], bytearray], list[int]],
    tasks: Sequence[T],
    workers: int,
    each: bool = True,
    starts: Sequence[int] | None = None,
) -> Iterator[tuple[int, int]]:
    """Yield (index, result) for every task, in the order they finish, where
    func(tasks[i:j], stop) gives the results of a run of neighbouring tasks:
    from each of `starts` (default: every task) to the next.  The core
    reuses work within a run, and releases the GIL once for it.

    With each=False, yield (-1, subtotal) once per thread instead: the sum of
    its tasks' results, without a hand-off to the caller per task.
    """
    stop = bytearray(1)
    finished: queue.Queue[tuple[int, int] | BaseException | None] = queue.Queue()
    lock = threading.Lock()
    bounds = list(range(len(tasks))) if starts is None else list(starts)
    pending = iter(zip(bounds, [*bounds[1:], len(tasks)]))

    def work(ended: threading.Event) -> None:
        subtotal = 0
        try:
            while not stop[0]:
                with lock:
                    first, end = next(pending, (None, None))
                if first is None:
                    if not each:
                        finished.put((-1, subtotal))
                    return
                results = func(tasks[first:end], stop)
                if stop[0]:  # a stopped search returns partial counts
                    return
                if each:
                    for i, result in enumerate(results, first):
                        finished.put((i, result))
                else:
                    subtotal += sum(results)
        except BaseException as exc:  # handed to the caller below
            stop[0] = 1
            finished.put(exc)
        finally:
            finished.put(None)  # this thread is done
            ended.set()

    ends = [threading.Event() for _ in range(max(1, min(workers, len(tasks))))]
    threads = [
        threading.Thread(target=work, args=(ended,), name=f"nqueens-{k}", daemon=True)
        for k, ended in enumerate(ends)
    ]
    for thread in threads:
        thread.start()
    try:
        running = len(threads)
        while running:
            try:
                item = finished.get(timeout=_WAIT_SLICE)
            except queue.Empty:
                continue
            if item is None:
                running -= 1
            elif isinstance(item, BaseException):
                raise item
            else:
                yield item
    finally:
        stop[0] = 1
        # the workers stop within moments: none outlives the call, even through
        # another Ctrl-C (raised once they are done)
        pressed = wait_for(ends)
        for thread in threads:
            try:
                thread.join()  # each has ended its work: a matter of moments
            except KeyboardInterrupt as exc:
                pressed = exc
        if pressed is not None:
            raise pressed


def wait_for(events: Sequence[threading.Event]) -> BaseException | None:
    """Wait until every event is set, in short slices, through Ctrl-C: the last
    KeyboardInterrupt pressed meanwhile is returned (None: none), for the caller
    to raise.  Threads set an event as they end, rather than being waited for
    with Thread.join(): interrupted, join() in CPython 3.9 to 3.12 can mark a
    thread that is still running as stopped (the bpo-45274 fix), and then
    is_alive() says False."""
    pressed: BaseException | None = None
    for event in events:
        while True:
            try:
                if event.wait(_WAIT_SLICE):
                    break
            except KeyboardInterrupt as exc:
                pressed = exc
    return pressed
