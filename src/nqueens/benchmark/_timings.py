"""What a benchmark run measures: the implementations, their kinds, the timings and
what was dropped; shared by the timing, the report and the plot."""

from __future__ import annotations

import statistics
from typing import Callable, NamedTuple

FIRST_N = 4
WIDE_SPREAD = 1.3  # max/min above this marks a figure as unsteady

# what each row is, for the colours of the plot and the headline ratios
CORE, THREADS, PLAIN_C, TWIN, BITMASK, REFERENCE, YOURS = (
    "core",
    "threads",
    "c",
    "twin",
    "bitmask",
    "reference",
    "yours",
)
KINDS = (CORE, THREADS, PLAIN_C, BITMASK, TWIN, REFERENCE, YOURS)  # the report's order


class Implementation(NamedTuple):
    key: str  # the name --only and --skip take, and the JSON keeps
    label: str
    count: Callable[[int], int]
    kind: str
    min_n: int = FIRST_N


class Timing(NamedTuple):
    """One implementation at one n: seconds per call, one figure per run."""

    key: str
    label: str
    kind: str
    n: int
    solutions: int
    loops: int
    samples: tuple[float, ...]

    @property
    def median(self) -> float:
        return float(statistics.median(self.samples))

    @property
    def low(self) -> float:
        return min(self.samples)

    @property
    def high(self) -> float:
        return max(self.samples)

    @property
    def wide(self) -> bool:
        """Whether the runs disagree by more than WIDE_SPREAD (max/min)."""
        return self.high > WIDE_SPREAD * self.low


class Dropped(NamedTuple):
    key: str
    reason: str
