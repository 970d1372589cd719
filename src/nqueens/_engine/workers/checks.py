"""Every result a worker gives back is checked before count() keeps it.

Nothing a worker returns is taken on trust:

- a result of another release, for subproblems other than those sent (a cache of
  another n, a shifted range), repeated, missing or malformed is refused;
- each count must keep what the mathematics gives for free: a whole multiple of its
  subproblem's weight (the orbit it stands for), at least 0 and at most the
  subproblem's bound from the split (``subproblems.subproblem_bound``);
- the subproblems the plan counts twice (plan.py) must agree: as the first results
  come in, one subproblem of each is counted in this process until one that has a
  solution agrees (no result is handed on before, so that an executor wrong on every
  unit commits nothing).  Two counts that differ raise ExecutorError naming the
  subproblem and both counts.

Any refusal raises ExecutorError; count() then keeps nothing unverified of that call
in its journal.  Workers that stop (a process pool whose process died, a Dask task
whose workers kept dying) raise BrokenWorkers: what they finished is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..._validate import short_repr
from ..subproblems import AnySubproblem, subproblem_bound
from .engines import Futures, engine_for
from .ledger import Forked, Shared
from .messages import ExecutorError, Finished, Unit, parse
from .plan import GATE_TRIES, Layout

if TYPE_CHECKING:
    import random


def results(
    workers: Any,
    subproblems: Sequence[AnySubproblem],
    pending: list[int],
    recount: float,
    local: Callable[[Unit], list[int]] | None,
    rng: random.Random,
    units: int | None = None,
    ready: Callable[[], bool] | None = None,
    forked: Callable[[], Any] | None = None,
) -> Iterator[Finished]:
    """Every pending subproblem's count, counted by `workers`, as results arrive: checked,
    and verified as the module says (`local` counts a unit in this process, once
    `ready` has made that possible (False: it cannot); None sends every check
    through the workers).  `forked`, for a pool that forks at its first submit:
    what gives this process's quadrant table (None: none) once the units are
    planned, just before the fork; the processes then take the units through
    shared memory (Forked)."""
    engine = engine_for(workers)
    layout = Layout(engine, subproblems, pending, recount, local, ready, rng, units)
    if forked is not None and isinstance(engine, Futures):
        layout.engine = engine = Forked(engine.executor, engine.name, forked, layout.count_here)
    elif Shared.serves(engine, subproblems):
        layout.engine = engine = Shared.of(engine, layout)
    name = engine.name
    if not pending:
        return
    answers = engine.stream(layout.calls(), layout.payloads)
    gate: bool | None = None  # closed until a check with a solution agrees (set at the first)
    tries = 0
    waiting: list[Finished] = []
    held: dict[int, Finished] = {}  # first counts of subproblems counted twice, waiting
    seconds_first: dict[int, int] = {}  # second counts that came before the first
    answered: set[int] = set()

    def compare(first: Finished, value: int, where: str) -> Finished:
        if first.value != value:
            raise ExecutorError(
                f"workers {name} counted subproblem {first.subproblem} "
                f"({short_repr(subproblems[first.subproblem])}) as {first.value:,}, and "
                f"{where} as {value:,}: a worker gives wrong counts"
            )
        return first._replace(verified=True)

    for position, answer in answers:
        laid, here, twice, local = layout.laid, layout.here, layout.twice, layout.local
        if laid is None:  # cannot happen: every engine takes its calls first
            raise AssertionError("a result came before the plan was whole")
        if gate is None:
            gate = recount > 0 and local is not None
        if position in answered:
            raise ExecutorError(f"workers {name} returned the result of a unit twice")
        unit = laid.payloads[position]
        version, implementation, counts = checked_counts(name, subproblems, unit, answer)
        answered.add(position)
        if laid.again[position]:
            for index, value in zip(unit.indices, counts):
                if index in held:
                    first = compare(held.pop(index), value, "counted again")
                    if gate:
                        waiting.append(first)
                    else:
                        yield first
                else:
                    seconds_first[index] = value
            continue
        firsts = [
            Finished(i, v, implementation, False, version) for i, v in zip(unit.indices, counts)
        ]
        if gate:
            solved = [f for f in firsts if f.value]
            known = [f for f in solved if f.subproblem in here]
            if known:
                gate = False  # compared below, before anything is handed on
            else:
                probe = rng.choice(solved or firsts)
                value = local(Unit((probe.subproblem,), (subproblems[probe.subproblem],)))[0]  # type: ignore[misc]
                here[probe.subproblem] = value
                tries += 1
                gate = not (value or tries >= GATE_TRIES)
                compare(probe, value, "this process")
        kept: list[Finished] = []
        for first in firsts:
            index = first.subproblem
            if index in here:
                first = compare(first, here[index], "this process")
            if index in twice:
                if index not in seconds_first:
                    held[index] = first  # until its second count comes
                    continue
                first = compare(first, seconds_first.pop(index), "counted again")
            kept.append(first)
        if gate:
            waiting.extend(kept)
            continue
        if waiting:
            yield from waiting
            waiting.clear()
        yield from kept
    if layout.laid is None or len(answered) < len(layout.payloads) or held or seconds_first:
        raise ExecutorError(f"workers {name} left some units without a result")
    yield from waiting  # the gate's every check agreed, none with a solution


def checked_counts(
    name: str, subproblems: Sequence[AnySubproblem], unit: Unit, answer: Any
) -> tuple[str, str, tuple[int, ...]]:
    """(version, implementation, counts) of the answer to `unit`, refused if it is malformed, of
    another release, for other subproblems than the unit's, or not a possible count."""
    version, implementation, counted, indices, counts = parse(name, answer)
    try:  # the echoes are the workers' objects: their comparison may raise
        other = indices != unit.indices or bool(counted != unit.subproblems)
    except Exception:
        other = True
    if other:
        raise ExecutorError(
            f"workers {name} returned a result for other subproblems than those it was given "
            f"(subproblems {short_repr(indices)}: {short_repr(counted)})"
        )
    for index, value in zip(indices, counts):
        subproblem = subproblems[index]
        if (
            type(value) is not int
            or not 0 <= value <= subproblem_bound(subproblem)
            or value % subproblem.weight
        ):
            raise ExecutorError(
                f"workers {name} returned {short_repr(value)} for subproblem {index}, which "
                "cannot be its count"
            )
    return version, implementation, counts
