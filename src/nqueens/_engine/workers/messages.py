"""What a worker is handed and what it answers: units of subproblems, their results, the errors.

A unit holds subproblems with their indices in the split, so that every result comes
back with its subproblems' identity; a result says where it comes from: the worker's
release of nqueens, the core that counted (compiled or twin), the subproblems it
counted (echoed) and their counts.  A unit of quadrant subproblems is pickled as the
bytes of their (cross, first, end) and checked in one pass where it is unpickled
(``Unit.__reduce__``).
"""

from __future__ import annotations

import array
import sys
from typing import Any, NamedTuple, cast

from ... import _select, _version
from ..._validate import short_repr
from .. import assembly as _assembly
from ..assembly import Checked, QuadrantTask
from ..subproblems import AnySubproblem, as_subproblem, count_run


class ExecutorError(RuntimeError):
    """``workers`` gave back results that do not match the work it was given."""


class BrokenWorkers(ExecutorError):
    """The workers stopped before the count ended (a process of a process pool died,
    a Dask task's workers kept dying).  What they finished is kept: with a journal,
    the same call resumes from it."""


class Unit(NamedTuple):
    """What the workers count in one call of the function they are handed: subproblems,
    with their indices, so that every result comes back with its subproblems' identity."""

    indices: tuple[int, ...]
    subproblems: tuple[AnySubproblem, ...]

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # quadrant subproblems of one n (every unit of a split by quadrants) travel as the
        # bytes of their (cross, first, end), 4 each (32-bit, little-endian: a row
        # set's rank is below 2**20 for n <= 23), and are checked in one pass
        # where they land, once (each subproblem pickled itself, was checked as it was
        # unpickled and again by count_unit)
        subproblems = cast("tuple[QuadrantTask, ...]", self.subproblems)
        if subproblems and type(subproblems[0]) is QuadrantTask:
            n = subproblems[0][0]
            if all(type(t) is QuadrantTask and t[0] == n for t in subproblems):
                try:
                    triples = array.array("i", [v for t in subproblems for v in t[1:]])
                except OverflowError:  # not a subproblem of any split: pickled as it is
                    return (Unit, (self.indices, self.subproblems))
                if _BIG_ENDIAN:  # little-endian on the way, whatever the machines
                    triples.byteswap()
                return (_quadrant_unit, (self.indices, n, triples.tobytes()))
        return (Unit, (self.indices, self.subproblems))


def _quadrant_unit(indices: tuple[int, ...], n: int, data: bytes) -> Unit:
    """A Unit of quadrant subproblems as Unit.__reduce__ packed it, each subproblem checked."""
    triples = array.array("i")
    triples.frombytes(data)
    if _BIG_ENDIAN:
        triples.byteswap()
    return Unit(indices, _assembly.checked_subproblems(n, triples.tolist()))


_BIG_ENDIAN = sys.byteorder == "big"


class UnitResult(NamedTuple):
    """A unit's counts, with where they come from."""

    version: str  # the worker's release of nqueens
    implementation: str  # the cores that counted: "cython" or "python"
    subproblems: tuple[tuple[Any, ...], ...]  # those it counted, as it read them, as tuples
    indices: tuple[int, ...]
    counts: tuple[int, ...]


class Finished(NamedTuple):
    """One subproblem's count as count() keeps it."""

    subproblem: int  # its index in the split
    value: int
    implementation: str
    verified: bool  # counted twice, alike
    version: str


def count_unit(unit: Unit) -> UnitResult:
    """The function the workers run: a unit's weighted counts, with the worker's
    release, its core and the subproblems, checked again, that it counted."""
    indices, subproblems = unit
    # (a unit unpickled here was checked as it was: see Unit.__reduce__)
    checked = (
        subproblems
        if type(subproblems) is Checked
        else tuple(as_subproblem(subproblem) for subproblem in subproblems)
    )
    counts = tuple(count_run(checked, bytearray(1)))
    # echoed as plain tuples: what the client compares with what it sent (a subproblem
    # type's own pickling checks it again on the way back, 2 us a subproblem)
    echoed = tuple(tuple(subproblem) for subproblem in checked)
    return UnitResult(_version.__version__, _select.IMPLEMENTATION, echoed, tuple(indices), counts)


def count_numbered(item: tuple[int, Unit]) -> tuple[int, UnitResult]:
    """count_unit for a pool that returns results in any order, with their number."""
    position, unit = item
    return position, count_unit(unit)


def result_of(unit: Unit, counts: tuple[int, ...], origin: tuple[str, str]) -> UnitResult:
    version, implementation = origin
    return UnitResult(version, implementation, unit.subproblems, unit.indices, counts)


def other_release(name: str, version: Any) -> ExecutorError:
    return ExecutorError(
        f"workers {name} returned a result counted by nqueens {short_repr(version)}, not "
        f"{_version.__version__} as this process: run one release on every worker"
    )


def parse(name: str, answer: Any) -> tuple[Any, ...]:
    """A result's fields, refused unless it has the shape of count_unit's and comes
    from this release."""
    if not (isinstance(answer, tuple) and len(answer) == len(UnitResult._fields)):
        raise ExecutorError(
            f"workers {name} returned {short_repr(answer)}, which is not a result of the function "
            "it was given (call it on every item, as map(func, items) does; a worker of "
            "an older nqueens gives results without their origin)"
        )
    version, implementation, counted, indices, counts = answer
    if type(version) is not str or version != _version.__version__:
        raise other_release(name, version)
    if not (
        isinstance(indices, tuple)
        and isinstance(counts, tuple)
        and isinstance(counted, tuple)
        and type(implementation) is str
        and len(indices) == len(counts) == len(counted)
        and all(type(i) is int for i in indices)
    ):
        raise ExecutorError(f"workers {name} returned a malformed result: {short_repr(answer)}")
    return version, implementation, counted, indices, counts
