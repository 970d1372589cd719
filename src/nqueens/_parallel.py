"""Run independent tasks on threads that each call the GIL-free core.

Threads take the next task as they finish the last, so none idles while
work is left.  The calling thread only waits, in short slices, so that
Ctrl-C reaches it at once; it then raises the stop flag that the core polls,
and the workers give up within a fraction of a second.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Callable, TypeVar

T = TypeVar("T")

_WAIT_SLICE = 0.05


def run_tasks(func: Callable[[T, bytearray], int], tasks: Sequence[T], workers: int) -> list[int]:
    """Return [func(task, stop) for task in tasks], computed by up to workers threads."""
    stop = bytearray(1)
    results: list[int] = [0] * len(tasks)
    errors: list[BaseException] = []
    lock = threading.Lock()
    pending = iter(range(len(tasks)))

    def work() -> None:
        try:
            while not stop[0]:
                with lock:
                    i = next(pending, None)
                if i is None:
                    return
                results[i] = func(tasks[i], stop)
        except BaseException as exc:  # handed to the caller below
            errors.append(exc)
            stop[0] = 1

    threads = [
        threading.Thread(target=work, name=f"nqueens-{k}", daemon=True)
        for k in range(max(1, min(workers, len(tasks))))
    ]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            while thread.is_alive():
                thread.join(_WAIT_SLICE)
    except BaseException:
        stop[0] = 1
        for thread in threads:
            thread.join()
        raise
    if errors:
        raise errors[0]
    return results
