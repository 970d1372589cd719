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

    def work() -> None:
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

    threads = [
        threading.Thread(target=work, name=f"nqueens-{k}", daemon=True)
        for k in range(max(1, min(workers, len(tasks))))
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
        for thread in threads:
            thread.join()
