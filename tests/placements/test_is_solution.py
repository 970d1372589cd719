from __future__ import annotations

import array
import itertools

import pytest
from hypothesis import given, strategies as st

import nqueens


def attacks(placement):
    n = len(placement)
    return any(
        placement[i] == placement[j] or abs(placement[i] - placement[j]) == j - i
        for i in range(n)
        for j in range(i + 1, n)
    )


@pytest.mark.parametrize("n", range(7))
def test_every_placement_of_small_boards(n):
    for placement in itertools.product(range(n), repeat=n):
        assert nqueens.is_solution(placement) is not attacks(placement)


@given(
    st.integers(1, 12).flatmap(lambda n: st.lists(st.integers(0, n - 1), min_size=n, max_size=n))
)
def test_random_placements(placement):
    assert nqueens.is_solution(placement) is not attacks(placement)


@pytest.mark.parametrize(
    "placement", [(1, 3, 0, 2), [2, 0, 3, 1], array.array("b", [1, 3, 0, 2]), range(1)]
)
def test_any_sequence_of_ints(placement):
    assert nqueens.is_solution(placement)


def test_empty_placement_is_a_solution():
    assert nqueens.is_solution(())


@pytest.mark.parametrize("placement", [(0, 1.0), ("0", 1), (None,), (True, 0)])
def test_non_int_entries_raise_type_error(placement):
    with pytest.raises(TypeError, match=r"placement\[\d\] must be an int"):
        nqueens.is_solution(placement)


@pytest.mark.parametrize("placement", [5, None, "0123", b"\x00"])
def test_non_sequences_raise_type_error(placement):
    with pytest.raises(TypeError, match="placement must be a sequence of ints"):
        nqueens.is_solution(placement)


@pytest.mark.parametrize("placement", [(0, 2), (-1, 0), (1, 3, 0, 4)])
def test_columns_off_the_board_raise_value_error(placement):
    with pytest.raises(ValueError, match=r"placement\[\d\] = -?\d is off the board"):
        nqueens.is_solution(placement)
