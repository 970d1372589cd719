from collections.abc import Iterable

MIN_N: int
MAX_N: int
FAST: bool

class Quarter:
    n: int
    def __init__(self, n: int, stop: bytes | bytearray | None = None) -> None: ...
    @property
    def size(self) -> int: ...
    def placements(self, rows: int, cols: int) -> list[tuple[int, int]]: ...

class Scratch:
    quarter: Quarter
    def __init__(self, quarter: Quarter) -> None: ...

def row_sets(rows: int, k: int) -> int: ...
def count_rows(
    quarter: Quarter,
    rows: int,
    west: int,
    east: int,
    holes1: int,
    holes2: int,
    symmetric: bool,
    first: int,
    end: int,
    stop: bytes | bytearray,
    scratch: Scratch | None = None,
) -> int: ...
def packed_halves(
    quarter: Quarter, east: bool, rows: int, cols: int, holes1: int, holes2: int, mode: int, q: int
) -> tuple[list[int], list[list[int]]]: ...
def count_pairs(stored: Iterable[int], items: Iterable[int], bits: int) -> int: ...
