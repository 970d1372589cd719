"""Each compiled core and its pure-Python twin expose the same names, signatures and
docstrings, and the stubs (.pyi) that mypy checks every call against name them all
(rapidfuzz's and cytoolz's parity tests do the same)."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

PAIRS = [
    ("nqueens._bitsolver", "nqueens._bitsolver_py"),
    ("nqueens._quadrants", "nqueens._quadrants_py"),
]


def public(module):
    # what a module defines for its callers (not what it imports)
    names = set()
    for name in dir(module):
        value = getattr(module, name)
        if name.startswith("_") or inspect.ismodule(value) or name == "annotations":
            continue  # (annotations: the __future__ import)
        if callable(value) and getattr(value, "__module__", module.__name__) != module.__name__:
            continue
        names.add(name)
    return names


def doc(value):
    # the docstring without the signature line that embedsignature adds
    text = inspect.getdoc(value) or ""
    first, _, rest = text.partition("\n")
    name = getattr(value, "__qualname__", value.__name__)
    if first.startswith((f"{value.__name__}(", f"{name}(", "__init__(")):
        text = rest.strip()
    return inspect.cleandoc(text)


def signature(value):
    try:
        return [p.name for p in inspect.signature(value).parameters.values()]
    except (TypeError, ValueError):
        return None


@pytest.mark.native
@pytest.mark.parametrize(("native", "twin"), PAIRS)
def test_core_and_twin_expose_the_same_names_signatures_and_docstrings(native, twin):
    core, python = importlib.import_module(native), importlib.import_module(twin)
    assert public(core) == public(python)
    for name in sorted(public(core)):
        a, b = getattr(core, name), getattr(python, name)
        if inspect.isclass(a):
            assert doc(a) == doc(b), name
            methods = {m for m in dir(a) if not m.startswith("_") and callable(getattr(a, m))}
            assert methods == {
                m for m in dir(b) if not m.startswith("_") and callable(getattr(b, m))
            }
            for method in methods:
                assert doc(getattr(a, method)) == doc(getattr(b, method)), f"{name}.{method}"
        elif callable(a):
            assert signature(a) == signature(b), name
            assert doc(a) == doc(b), name
        else:
            assert type(a) is type(b), name


@pytest.mark.parametrize(("native", "twin"), PAIRS)
def test_the_stubs_name_what_the_twin_defines(native, twin):
    python = importlib.import_module(twin)
    stub = Path(python.__file__).with_name(native.split(".")[-1] + ".pyi")
    tree = ast.parse(stub.read_text())
    named = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            named.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            named.add(node.target.id)
    assert named == public(python)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            stubbed = [a.arg for a in node.args.args + node.args.kwonlyargs]
            assert stubbed == signature(getattr(python, node.name)), node.name
