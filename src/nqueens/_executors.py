"""Map-like workers: the units they are handed, the results they give back, and the checks.

count(n, workers=func) calls ``func(count_unit, units)`` about 64 times, one
call ahead (the next call's units are submitted before this call's results
are read).  Each unit is a run of tasks that can share the core's table,
with their indices; each result says where it comes from: the worker's
release of nqueens, the core that counted (compiled or twin) and the tasks
it counted, echoed.  Nothing a worker returns is taken on trust:

- a result of another release, for tasks other than those sent (a cache of
  another n, a shifted range), repeated, missing or malformed is refused;
- each count must keep what the mathematics gives for free: a whole
  multiple of its task's weight (the orbit it stands for), at least 0 and
  at most the task's bound from the split (``_tasks.task_bound``);
- a share ``verify`` of the units, chosen at random per call of count(),
  and never fewer than MIN_CHECKS, is counted twice: LOCAL_CHECKS of them
  in this process, the rest through the executor again (so that the second
  count usually lands on another worker).  Before that, the units of the
  first call are counted here as they arrive until one that has a solution
  agrees, and no result is handed on before, so that an executor wrong on
  every unit commits nothing.  Two counts that differ raise ExecutorError
  naming the task and both counts.

Any refusal raises ExecutorError; count() then keeps nothing unverified of
that call in its journal.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple

from . import _select, _version
from ._tasks import Task, as_task, count_run, runs, task_bound

# Calls of a map-like per count: each call's results are journalled before
# the next starts, and the progress bar moves per call
BATCHES = 64
# units counted twice per count, at the least (all of them where there are fewer)
MIN_CHECKS = 4
# of those, counted again in the calling process
LOCAL_CHECKS = 2
VERIFY_DEFAULT = 0.02
"""The share of units count() counts twice by default (see count's ``verify``)."""


class ExecutorError(RuntimeError):
    """A map-like ``workers`` gave back results that do not match the work it was given."""


class Unit(NamedTuple):
    """What a map-like workers hands to one call of its function: tasks that
    can share the core's table, with their indices, so that every result
    comes back with the identity of its tasks."""

    indices: tuple[int, ...]
    tasks: tuple[Task, ...]


class UnitResult(NamedTuple):
    """A unit's counts, with where they come from."""

    version: str  # the worker's release of nqueens
    core: str  # the core that counted: "cython" or "python"
    tasks: tuple[Task, ...]  # the tasks it counted, as it read them
    indices: tuple[int, ...]
    counts: tuple[int, ...]


class Finished(NamedTuple):
    """One task's count as count() keeps it."""

    task: int  # its index in the split
    value: int
    core: str
    verified: bool  # counted twice, alike
    version: str


def count_unit(unit: Unit) -> UnitResult:
    """The function that map-like workers run: a unit's weighted counts, with
    the worker's release, its core and the tasks, checked again, that it counted."""
    indices, tasks = unit
    checked = tuple(as_task(task) for task in tasks)
    counts = tuple(count_run(checked, bytearray(1)))
    return UnitResult(_version.__version__, _select.IMPLEMENTATION, checked, tuple(indices), counts)


def units(tasks: Sequence[Task], pending: Sequence[int]) -> list[tuple[int, ...]]:
    """The pending tasks' indices cut into units: runs of tasks that share a table."""
    todo = [tasks[i] for i in pending]
    starts = runs(todo)
    return [tuple(pending[a:b]) for a, b in zip(starts, [*starts[1:], len(todo)])]


def calls(cut: Sequence[tuple[int, ...]], tasks: int) -> list[list[int]]:
    """The units (their positions in cut) in BATCHES calls of about as many tasks
    (many small units, so that a call keeps a large cluster busy)."""
    size = max(1, -(-tasks // BATCHES))
    found: list[list[int]] = []
    call: list[int] = []
    held = 0
    for position, unit in enumerate(cut):
        call.append(position)
        held += len(unit)
        if held >= size:
            found.append(call)
            call, held = [], 0
    if call:
        found.append(call)
    return found


def choose_checks(
    plan: Sequence[Sequence[int]], verify: float, rng: random.Random
) -> tuple[set[int], set[int], list[int]]:
    """(units counted twice through the executor, units counted again here, and the
    gate: the units of the first call, counted here as they come until one with a
    solution agrees, before any result is kept; a unit without a solution proves
    little): a share `verify` of all units, MIN_CHECKS at least, besides the gate."""
    everything = [u for call in plan for u in call]
    if verify <= 0 or not everything:
        return set(), set(), []
    wanted = max(round(verify * len(everything)), min(MIN_CHECKS, len(everything)))
    gate = list(plan[0])
    rest = [u for u in everything if u not in set(gate)]
    chosen = rng.sample(rest, min(len(rest), max(0, wanted - 1)))
    return set(chosen[LOCAL_CHECKS - 1 :]), set(chosen[: LOCAL_CHECKS - 1]), gate


def results(
    pool: Callable[..., Iterable[Any]],
    tasks: Sequence[Task],
    pending: list[int],
    verify: float,
    local: Callable[[Unit], list[int]] | None,
    rng: random.Random,
) -> Iterator[Finished]:
    """Every pending task's count, counted by `pool`, as the calls finish: checked,
    and verified as the module says (`local` counts a unit in this process; None
    sends those checks through the executor too)."""
    name = _describe(pool)
    cut = units(tasks, pending)
    plan = calls(cut, len(pending))
    twice, here, tries = choose_checks(plan, verify, rng)
    if local is None:
        twice, here, tries = twice | here | set(tries[:1]), set(), []
    gate = set(tries)  # nothing leaves before one of these agrees, with a solution
    held: dict[int, Finished] = {}  # first counts of units to be counted again
    waiting: list[Finished] = []  # what the gate holds back
    again: list[int] = []  # units to send through the executor once more
    queue = deque(plan)

    def send(originals: list[int], recounts: list[int]) -> tuple[dict[int, int], set[int], Any]:
        positions = originals + recounts
        payload = [Unit(cut[u], tuple(tasks[i] for i in cut[u])) for u in positions]
        owner = {i: u for u in positions for i in cut[u]}
        return owner, set(recounts), pool(count_unit, payload)

    def settle(found: Finished) -> Iterator[Finished]:
        if gate:
            waiting.append(found)
        else:
            yield found

    def compare(first: Finished, value: int, where: str) -> Finished:
        if first.value != value:
            raise ExecutorError(
                f"workers {name} counted task {first.task} ({_short(tasks[first.task])}) as "
                f"{first.value:,}, and {where} as {value:,}: a worker gives wrong counts"
            )
        return first._replace(verified=True)

    def take(flight: tuple[dict[int, int], set[int], Any]) -> Iterator[Finished]:
        owner, recounted, answers = flight
        for unit, counts, core, version in _checked(name, tasks, cut, owner, answers):
            indices = cut[unit]
            if unit in recounted:
                for index, value in zip(indices, counts):
                    yield from settle(compare(held.pop(index), value, "counted again"))
                continue
            firsts = [Finished(i, v, core, False, version) for i, v in zip(indices, counts)]
            if unit in twice:
                held.update((f.task, f) for f in firsts)
                again.append(unit)
            elif local is not None and (unit in here or unit in gate):
                values = local(Unit(indices, tuple(tasks[i] for i in indices)))
                checked = [
                    compare(first, value, "this process") for first, value in zip(firsts, values)
                ]
                if unit in gate and any(values):
                    gate.clear()  # checked, with a solution: the results may go on
                gate.discard(unit)
                for first in checked:
                    yield from settle(first)
            else:
                for first in firsts:
                    yield from settle(first)
        if not gate and waiting:
            yield from waiting
            waiting.clear()

    flight = None
    while True:
        upcoming = None
        if queue or again:
            upcoming = send(queue.popleft() if queue else [], again[:])
            again.clear()
        if flight is not None:
            yield from take(flight)
        flight = upcoming
        if flight is None and not again:
            break
    if gate or waiting or held:  # cannot happen: every unit was answered or refused
        raise ExecutorError(f"workers {name} left some units without a checked result")


def _checked(
    name: str,
    tasks: Sequence[Task],
    cut: Sequence[tuple[int, ...]],
    owner: dict[int, int],
    answers: Any,
) -> Iterator[tuple[int, tuple[int, ...], str, str]]:
    """(unit, counts, core, version) of each result of one call, refusing any that
    is malformed, of another release, for tasks other than those sent, repeated,
    or not a possible count, and any unit left without a result.  Order does not
    matter."""
    try:
        answers = iter(answers)
    except TypeError:
        raise ExecutorError(
            f"workers {name} returned {type(answers).__name__}, not an iterable of results"
        ) from None
    seen: set[int] = set()
    for answer in answers:
        if not (isinstance(answer, tuple) and len(answer) == len(UnitResult._fields)):
            raise ExecutorError(
                f"workers {name} returned {_short(answer)}, which is not a result of the function "
                "it was given (call it on every item, as map(func, items) does; a worker of "
                "an older nqueens gives results without their origin)"
            )
        version, core, counted, indices, counts = answer
        if version != _version.__version__:
            raise ExecutorError(
                f"workers {name} returned a result counted by nqueens {_short(version)}, not "
                f"{_version.__version__} as here: run one release on every worker"
            )
        if not (
            isinstance(indices, tuple)
            and isinstance(counts, tuple)
            and isinstance(counted, tuple)
            and isinstance(core, str)
            and len(indices) == len(counts) == len(counted)
        ):
            raise ExecutorError(f"workers {name} returned a malformed result: {_short(answer)}")
        if not indices or not all(type(i) is int for i in indices) or indices[0] not in owner:
            raise ExecutorError(f"workers {name} returned a result for a task it was not given")
        unit = owner[indices[0]]
        if indices != cut[unit] or counted != tuple(tasks[i] for i in indices):
            raise ExecutorError(
                f"workers {name} returned a result for other tasks than those it was given "
                f"(tasks {_short(indices)}: {_short(counted)})"
            )
        if unit in seen:
            raise ExecutorError(f"workers {name} returned the result of task {indices[0]} twice")
        for index, value in zip(indices, counts):
            task = tasks[index]
            if type(value) is not int or not 0 <= value <= task_bound(task) or value % task.weight:
                raise ExecutorError(
                    f"workers {name} returned {_short(value)} for task {index}, which cannot be "
                    "its count"
                )
        seen.add(unit)
        yield unit, counts, core, version
    missing = len({u for u in owner.values()} - seen)
    if missing:
        raise ExecutorError(
            f"workers {name} returned no result for {missing} of the "
            f"{len(set(owner.values()))} units it was given: it dropped some"
        )


def _describe(pool: Any) -> str:
    return _short(getattr(pool, "__qualname__", None) or pool)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
