"""The examples in the public docstrings run as doctests, on the installed package."""

from __future__ import annotations

import doctest
import importlib

import pytest

import nqueens


@pytest.mark.parametrize("name", ["count", "solutions", "is_solution"])
def test_public_functions_have_examples_that_pass(name):
    function = getattr(nqueens, name)
    assert ">>>" in (function.__doc__ or "")
    module = importlib.import_module(function.__module__)
    finder = doctest.DocTestFinder()
    tests = [t for t in finder.find(module, globs=vars(nqueens)) if t.name.endswith(name)]
    assert tests
    runner = doctest.DocTestRunner()
    for test in tests:
        runner.run(test)
    assert runner.failures == 0


def test_version_and_implementation():
    assert nqueens.__version__.count(".") == 2
    assert nqueens.IMPLEMENTATION in ("cython", "python")
