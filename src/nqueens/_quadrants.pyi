import enum
from collections.abc import Iterable

MIN_N: int
MAX_N: int
FAST: bool
CPU_LEVELS: tuple[str, ...]

def cpu_levels() -> tuple[str, ...]: ...
def cpu() -> str: ...
def use_cpu(name: str) -> None: ...

class Quarter:
    n: int
    def __init__(self, n: int, stop: bytes | bytearray | None = None) -> None: ...
    @property
    def size(self) -> int: ...
    def placements(self, rows: int, cols: int) -> list[tuple[int, int]]: ...

class Scratch:
    quarter: Quarter
    def __init__(self, quarter: Quarter) -> None: ...

class Mode(enum.IntEnum):
    ALL = 0
    OFF_LONG = 1
    BY_CLASS = 2

class Job:
    n: int
    def __init__(
        self,
        n: int,
        rows: int,
        west: int,
        east: int,
        holes1: int,
        holes2: int,
        symmetric: bool,
        middle: int = 0,
    ) -> None: ...
    @property
    def middle(self) -> int: ...
    @property
    def rows(self) -> int: ...
    @property
    def west(self) -> int: ...
    @property
    def east(self) -> int: ...
    @property
    def holes1(self) -> int: ...
    @property
    def holes2(self) -> int: ...
    @property
    def symmetric(self) -> bool: ...
    @property
    def row_sets(self) -> int: ...

def count_rows(
    quarter: Quarter,
    job: Job,
    first: int,
    end: int,
    stop: bytes | bytearray,
    scratch: Scratch | None = None,
    planned: int = 0,
) -> int: ...
def packed_halves(
    quarter: Quarter,
    east: bool,
    rows: int,
    cols: int,
    holes1: int,
    holes2: int,
    mode: int,
    plain_class: int,
) -> tuple[list[int], list[list[int]]]: ...
def count_pairs(
    stored: Iterable[int], items: Iterable[int], bits: int, tables: str = "any"
) -> int: ...
