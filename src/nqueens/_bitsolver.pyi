from collections.abc import Callable, Iterable, Iterator, Sequence

MAX_N: int
GATHER_MAX_N: int
COMPILER: str
CFLAGS: str

class Tables:
    def __init__(self) -> None: ...

def count_preset(
    n: int,
    rows: Sequence[int],
    cols: Sequence[int],
    stop: bytearray,
    upper: int = -1,
    tables: Tables | None = None,
) -> int: ...
def count_each(
    subproblems: Sequence[tuple[int, int, Sequence[int], Sequence[int]]],
    stop: bytearray,
    tables: Tables,
) -> list[int]: ...
def constellations(n: int) -> list[tuple[int, int, int, int, int]]: ...
def count_solutions(n: int, stop: bytearray) -> int: ...
def count_symmetric(
    n: int, arrays: bool = False, stop: bytearray | None = None
) -> tuple[int, int]: ...

class Enumerator:
    done: bool
    def __init__(
        self,
        n: int,
        prefix: Iterable[int],
        unique: bool,
        rows: Sequence[int] = (),
        cols: Sequence[int] = (),
    ) -> None: ...
    def fill(self, out: bytearray, max_count: int, max_nodes: int) -> int: ...

class Gathered:
    size: int
    def __init__(self, n: int, unique: bool, part: int = 0, parts: int = 1) -> None: ...
    def take(self, other: Gathered) -> None: ...
    def placements(self, start: int, stop: int) -> Iterator[tuple[int, ...]]: ...

class Placements:
    def __init__(
        self, make: Callable[[], Gathered] | None = None, limit: int | None = None
    ) -> None: ...
    def __iter__(self) -> Placements: ...
    def __next__(self) -> tuple[int, ...]: ...
