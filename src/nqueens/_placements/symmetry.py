"""The 8 symmetries of the board (rotations and reflections), in plain Python."""

from __future__ import annotations

from collections.abc import Sequence


def images(placement: Sequence[int]) -> list[tuple[int, ...]]:
    """The 8 images of a placement: it and its inverse (the transpose), each
    with or without its rows and its columns reversed."""
    n = len(placement)
    inverse = [0] * n
    for row, col in enumerate(placement):
        inverse[col] = row
    result = []
    for source in (list(placement), inverse):
        for rows in (source, source[::-1]):
            result.append(tuple(rows))
            result.append(tuple(n - 1 - c for c in rows))
    return result


def canonical(placement: Sequence[int]) -> tuple[int, ...]:
    """The representative of a placement's symmetry class: its smallest image.

    >>> canonical((2, 0, 3, 1))
    (1, 3, 0, 2)
    """
    return min(images(placement))
