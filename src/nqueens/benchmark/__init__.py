"""``nqueens bench``: time the core against pure Python, plain C and your own solver.

Every implementation counts the solutions for n = 4, 5, ... in turn and is
dropped once one size takes longer than the budget, or the next one is
predicted to.  Each figure is the median of several runs (5, or 3 where a
run takes over a second), given with its spread; a call that takes less than
a few milliseconds is looped and timed as a batch.  Every count is checked
against OEIS A000170, and a solver given with ``--against`` is checked on
the small boards before it is timed.

>>> impls = select(implementations(None, ["core", "twin"]), None, None)
>>> [impl.key for impl in impls]
['core', 'twin']
>>> timings, dropped = measure(impls, 6, 0.5, 3, None)
>>> [(t.key, t.n, t.solutions, len(t.samples)) for t in timings if t.n == 6]
[('core', 6, 4, 3), ('twin', 6, 4, 3)]
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import operator
import os
import sys
import time
from collections.abc import Iterator, Sequence
from typing import Any, Callable, NamedTuple, TextIO

from .._bench_defaults import (
    DEFAULT_BUDGET,
    DEFAULT_MAX_N,
    DEFAULT_RUNS,
    JSON_NAME,
    MARKDOWN_NAME,
    MAX_RUNS,
    MIN_RUNS,
    OUT_DIR,
    PLOT_NAME,
    QUICK_BUDGET,
    QUICK_MAX_N,
    SLOW_RUN,
)
from .._engine.counting import INLINE_MAX_N, count
from .._oeis import A000170
from .._select import IMPLEMENTATION
from .._validate import available_cores, short_repr
from ..reference import SOLVERS
from ._timings import (
    BITMASK,
    CORE,
    FIRST_N,
    KINDS,
    PLAIN_C,
    REFERENCE,
    THREADS,
    TWIN,
    WIDE_SPREAD,
    YOURS,
    Dropped,
    Implementation,
    Timing,
)

__all__ = [
    "BITMASK",
    "CHECK_MAX_N",
    "CORE",
    "DEFAULT_BUDGET",
    "DEFAULT_MAX_N",
    "DEFAULT_RUNS",
    "FIRST_N",
    "INTERRUPTED",
    "JSON_NAME",
    "KINDS",
    "MARKDOWN_NAME",
    "MAX_RUNS",
    "MIN_RUNS",
    "OUT_DIR",
    "OWN_KEYS",
    "PLAIN_C",
    "PLOT_NAME",
    "QUICK_BUDGET",
    "QUICK_MAX_N",
    "REFERENCE",
    "SAMPLE_SLICE",
    "SLOW_RUN",
    "THREADS",
    "THREADS_MIN_N",
    "TWIN",
    "WIDE_SPREAD",
    "YOURS",
    "Dropped",
    "Implementation",
    "Options",
    "Timing",
    "admit",
    "check_names",
    "chosen",
    "describe_briefly",
    "implementations",
    "load_against",
    "measure",
    "run",
    "select",
    "time_one",
    "warnings_for",
]

SAMPLE_SLICE = 0.02  # seconds: a faster call is looped until a batch takes this long
INTERRUPTED = "the run was interrupted (Ctrl-C)"
CHECK_MAX_N = 8  # a solver from --against is checked on n = 4..8 before it is timed

OWN_KEYS = ("core", "core-threads", "plain-c", "twin", *SOLVERS)
# below this size count() runs in one thread whatever it is given
THREADS_MIN_N = INLINE_MAX_N + 1


def check_report(path: str) -> None:
    """Refuse (ValueError, one line) a file that is not a saved run of nqueens bench."""
    from . import _report

    _report.load(path)


def implementations(log: TextIO | None, keys: Sequence[str] | None = None) -> list[Implementation]:
    """Our own implementations, in report order; only those in keys when given
    (plain C is compiled only when it is wanted)."""

    def wanted(key: str) -> bool:
        return keys is None or key in keys

    # the C compiler's wrapper and the twin are loaded here, not with the package
    from .. import _bitsolver_py
    from ._baseline import BaselineUnavailable, build_temporary

    threads = available_cores()
    found = [Implementation("core", f"core ({IMPLEMENTATION}, 1 thread)", count, CORE)]
    if threads > 1:
        found.append(
            Implementation(
                "core-threads",
                f"core ({IMPLEMENTATION}, {threads} threads)",
                lambda n: count(n, workers=-1),
                THREADS,
                THREADS_MIN_N,
            )
        )
    if wanted("plain-c"):
        try:
            found.append(Implementation("plain-c", "plain C (cc -O3)", build_temporary(), PLAIN_C))
        except BaselineUnavailable as exc:
            _say(log, f"plain C skipped: {exc}")
    found.append(
        Implementation(
            "twin",
            "pure-Python twin",
            lambda n: int(_bitsolver_py.count_solutions(n, bytearray(1))),
            TWIN,
        )
    )
    for name, solver in SOLVERS.items():
        kind = BITMASK if name == "bitmask" else REFERENCE
        found.append(Implementation(name, f"pure Python: {name}", _counter(solver), kind))
    return [impl for impl in found if wanted(impl.key)]


def _counter(solver: Callable[[int], Iterator[tuple[int, ...]]]) -> Callable[[int], int]:
    return lambda n: sum(1 for _ in solver(n))


def _say(log: TextIO | None, line: str) -> None:
    if log is not None:
        print(f"bench: {line}", file=log, flush=True)


def check_names(names: Sequence[str] | None, known: Sequence[str], option: str) -> None:
    """Raise ValueError for a name that is not an implementation."""
    for name in names or ():
        if name not in known:
            raise ValueError(
                f"{option}: no implementation {name!r} (choose from {', '.join(known)})"
            )


def select(
    impls: Sequence[Implementation], only: Sequence[str] | None, skip: Sequence[str] | None
) -> list[Implementation]:
    """The implementations named by only (all when None), less those in skip."""
    return [impl for impl in impls if chosen(impl.key, only, skip)]


def chosen(key: str, only: Sequence[str] | None, skip: Sequence[str] | None) -> bool:
    return (only is None or key in only) and (skip is None or key not in skip)


def load_against(spec: str) -> Implementation:
    """Your solver from "package.module:function" or "path/to/file.py:function".

    Raises ValueError when it cannot be found: the module is looked up on the
    path and in the current directory.

    >>> load_against("nqueens:count").count(8)
    92
    >>> load_against("nqueens:no_such_function")
    Traceback (most recent call last):
    ...
    ValueError: --against 'nqueens:no_such_function': module nqueens has no no_such_function
    """
    where, colon, name = spec.rpartition(":")
    if not colon or not where or not name.isidentifier():
        raise ValueError(f"--against takes MODULE:FUNCTION or FILE.py:FUNCTION, got {spec!r}")
    try:
        if where.endswith(".py"):
            if not os.path.isfile(where):
                raise ValueError(f"--against {spec!r}: no file {where}")
            module_name = f"nqueens_against_{len(sys.modules)}"
            found = importlib.util.spec_from_file_location(module_name, where)
            if found is None or found.loader is None:
                raise ValueError(f"--against {spec!r}: {where} cannot be loaded as a module")
            module = importlib.util.module_from_spec(found)
            found.loader.exec_module(module)
        else:
            if os.getcwd() not in sys.path and "" not in sys.path:
                sys.path.append(os.getcwd())
            module = importlib.import_module(where)
    except ValueError:
        raise
    except Exception as exc:  # the user's module may raise anything at import
        raise ValueError(
            f"--against {spec!r}: cannot import {where}: {type(exc).__name__}: {exc}"
        ) from None
    function = getattr(module, name, None)
    if function is None:
        raise ValueError(f"--against {spec!r}: module {where} has no {name}")
    if not callable(function):
        raise ValueError(f"--against {spec!r}: {name} is not callable")
    return Implementation(spec, f"yours: {spec}", function, YOURS)


def admit(impl: Implementation, max_n: int, log: TextIO | None) -> Dropped | None:
    """Check a solver's counts for n = 4..8 (or max_n) before any timing;
    None when they are right, else why it is dropped."""
    for n in range(FIRST_N, min(max_n, CHECK_MAX_N) + 1):
        problem = _wrong(impl, n)
        if problem is not None:
            _say(log, f"{impl.key} dropped, not timed: {problem}")
            return Dropped(impl.key, problem)
    return None


def _wrong(impl: Implementation, n: int) -> str | None:
    # why impl's count for n cannot be used, or None
    try:
        result = impl.count(n)
    except Exception as exc:  # a user's solver may raise anything
        return _raised(n, exc)
    return _check_result(result, n)


def _check_result(result: object, n: int) -> str | None:
    # (a user's solver may return anything: an int too long to print, an object whose
    # __index__ or __repr__ raises)
    if isinstance(result, bool):
        return f"count({n}) returned {result!r}, not an int"
    try:
        value = operator.index(result)  # type: ignore[arg-type]
    except Exception:
        return f"count({n}) returned {short_repr(result)}, not an int"
    if value != A000170[n]:
        return f"count({n}) = {short_repr(value)}, not {A000170[n]} (OEIS A000170)"
    return None


def _raised(n: int, exc: Exception) -> str:
    try:
        text = str(exc)
    except Exception:  # (a user's exception whose __str__ raises)
        text = "(it cannot be shown)"
    if len(text) > 200:
        text = text[:197] + "..."
    return f"count({n}) raised {type(exc).__name__}: {text}"


def time_one(impl: Implementation, n: int, runs: int) -> Timing | str:
    """impl timed at n: a Timing, or why it could not be (an error or a wrong count)."""
    start = time.perf_counter()
    try:
        result = impl.count(n)
    except Exception as exc:
        return _raised(n, exc)
    first = time.perf_counter() - start
    problem = _check_result(result, n)
    if problem is not None:
        return problem
    loops = 1 if first >= SAMPLE_SLICE else min(10**6, math.ceil(SAMPLE_SLICE / max(first, 1e-7)))
    wanted = runs if first < SLOW_RUN else min(runs, MIN_RUNS)
    # the first call warms up (tables, caches, a library's first call) unless it
    # was slow enough for that not to matter
    samples = [first] if first >= SLOW_RUN else []
    while len(samples) < wanted:
        start = time.perf_counter()
        for _ in range(loops):
            result = impl.count(n)
        samples.append((time.perf_counter() - start) / loops)
        problem = _check_result(result, n)
        if problem is not None:
            return problem
    return Timing(impl.key, impl.label, impl.kind, n, A000170[n], loops, tuple(samples))


def measure(
    impls: Sequence[Implementation], max_n: int, budget: float, runs: int, log: TextIO | None
) -> tuple[list[Timing], list[Dropped]]:
    """Time each implementation for n = FIRST_N..max_n within the budget."""
    timings: list[Timing] = []
    dropped: list[Dropped] = []
    last: dict[str, float] = {}
    active = list(impls)
    for n in range(FIRST_N, max_n + 1):
        for impl in list(active):
            if n < impl.min_n:
                continue
            try:
                timing = time_one(impl, n, runs)
            except KeyboardInterrupt:
                # what was measured is kept: the report says where the run stopped
                _say(log, f"interrupted while timing {impl.key} at n = {n}")
                dropped.append(Dropped(impl.key, f"{INTERRUPTED} while timing it at n = {n}"))
                return timings, dropped
            if isinstance(timing, str):
                _say(log, f"{impl.key} dropped at n = {n}: {timing}")
                dropped.append(Dropped(impl.key, timing))
                active.remove(impl)
                continue
            timings.append(timing)
            seconds = timing.median
            growth = max(seconds / last[impl.key], 2.0) if impl.key in last else 8.0
            last[impl.key] = seconds
            if seconds > budget or seconds * growth > budget:
                active.remove(impl)
        done = [t for t in timings if t.n == n]
        if done:
            slowest = max(done, key=lambda t: t.median)
            _say(log, f"n = {n}: {len(done)} timed, slowest {slowest.label} {slowest.median:.3g} s")
        if not active:
            break
    return timings, dropped


def warnings_for(timings: Sequence[Timing], facts: dict[str, Any]) -> list[str]:
    """What a reader of the figures must know: a busy machine, unsteady figures,
    threads that did not help."""
    from ._machine import busy

    found = []
    if busy(facts):
        found.append(
            f"the machine was busy before the run ({facts['busy_before']} of its "
            f"{facts['cores']} cores at work): other work slows and scatters the figures"
        )
    wide = [t for t in timings if t.wide]
    if wide:
        found.append(
            f"{len(wide)} of {len(timings)} figures spread over {WIDE_SPREAD}x between their "
            "fastest and slowest run (marked †): the machine was not steady"
        )
    by = {(t.key, t.n): t for t in timings}
    for t in timings:
        single = by.get(("core", t.n))
        if t.key == "core-threads" and single is not None and t.median >= single.median:
            found.append(
                f"at n = {t.n} the core on {facts['cores']} threads was not faster than on one "
                f"({t.median:.3g} s against {single.median:.3g} s): starting threads cost "
                "more than they saved, or other work held a core"
            )
    return found


class Options(NamedTuple):
    """What `nqueens bench` was asked (the CLI has checked every field)."""

    max_n: int = DEFAULT_MAX_N
    budget: float = DEFAULT_BUDGET
    runs: int = DEFAULT_RUNS
    out_dir: str | None = "."
    json_path: str | None = None
    compare: Sequence[str] = ()
    only: Sequence[str] | None = None
    skip: Sequence[str] | None = None
    against: Sequence[Implementation] = ()
    argv: Sequence[str] = ("nqueens", "bench")


def run(options: Options, stdout: TextIO, log: TextIO) -> None:
    """The whole command: measure, print the report, write its files, compare."""
    from .._output import write_atomically
    from . import _report as report
    from ._machine import busy, context, load_average

    if len(options.compare) == 2:  # two saved runs: compare them, time nothing
        (_, old), (_, new) = report.load(options.compare[0]), report.load(options.compare[1])
        stdout.write(report.compare(old, new))
        return
    facts = context(options.argv)
    _say(log, describe_briefly(facts))
    if busy(facts):
        _say(log, f"warning: the machine is busy ({facts['busy_before']} cores at work)")
    keys = [key for key in OWN_KEYS if chosen(key, options.only, options.skip)]
    impls: list[Implementation] = implementations(log, keys)
    dropped: list[Dropped] = []
    for yours in select(options.against, options.only, options.skip):
        problem = admit(yours, options.max_n, log)
        if problem is None:
            impls.append(yours)
        else:
            dropped.append(problem)
    timings, late = measure(impls, options.max_n, options.budget, options.runs, log)
    dropped += late
    facts["load_after"] = load_average()
    warnings = warnings_for(timings, facts)
    for warning in warnings:
        _say(log, f"warning: {warning}")
    text = report.markdown(facts, timings, dropped, warnings)
    settings = {
        "max_n": options.max_n,
        "budget": options.budget,
        "runs": options.runs,
        "implementations": [impl.key for impl in impls],
    }
    data = report.to_json(facts, settings, timings, dropped, warnings)
    stdout.write(text)
    if options.compare:
        _, old = report.load(options.compare[0])
        stdout.write(f"\nAgainst {options.compare[0]}:\n\n" + report.compare(old, timings))
    stdout.flush()
    if options.json_path is not None:
        write_atomically(options.json_path, data)
        _say(log, f"JSON written to {options.json_path}")
    if options.out_dir is not None:
        _write_files(options.out_dir, text, data, timings, facts, log)
    if any(drop.reason.startswith(INTERRUPTED) for drop in dropped):
        raise KeyboardInterrupt  # the report is written; the exit status still says so


def _write_files(
    out_dir: str,
    text: str,
    data: str,
    timings: Sequence[Timing],
    facts: dict[str, Any],
    log: TextIO,
) -> None:
    from .._output import write_atomically
    from .._version import DISTRIBUTION, __version__

    write_atomically(os.path.join(out_dir, MARKDOWN_NAME), text)
    write_atomically(os.path.join(out_dir, JSON_NAME), data)
    _say(log, f"report written to {out_dir}: {MARKDOWN_NAME}, {JSON_NAME}")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        _say(log, f"no plot: matplotlib is not installed (pip install '{DISTRIBUTION}[plot]')")
        return
    from ._plot import plot

    path = os.path.join(out_dir, PLOT_NAME)
    plot(timings, path, f"nqueens {__version__}: {facts['cpu']}, {facts['python']}")
    _say(log, f"plot written to {path}")


def describe_briefly(facts: dict[str, Any]) -> str:
    """The context in one line, for the log."""
    return (
        f"{facts['cpu']}, {facts['cores']} cores; {facts['python']}; {facts['package']} "
        f"({facts['core']} core, {facts['compiler']} {facts['cflags']})".rstrip()
    )
