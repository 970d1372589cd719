"""Docs that run: every docstring example of the installed package, and every Python block
of the README, on the installed package."""

from __future__ import annotations

import doctest
import importlib
import os
import pkgutil
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import nqueens

MODULES = sorted(
    name
    for _, name, _ in pkgutil.walk_packages(nqueens.__path__, "nqueens.")
    if name != "nqueens.__main__"
)
README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.mark.parametrize("name", ["nqueens", *MODULES])
def test_every_docstring_example_passes(name):
    module = importlib.import_module(name)
    public = {key: getattr(nqueens, key) for key in nqueens.__all__}
    tests = doctest.DocTestFinder().find(module, name, extraglobs=public)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        runner.run(test)
    assert runner.failures == 0


@pytest.mark.parametrize("name", nqueens.__all__)
def test_public_functions_have_examples(name):
    value = getattr(nqueens, name)
    if callable(value) and not isinstance(value, type):
        assert ">>>" in (value.__doc__ or ""), f"{name} has no example"


def readme_blocks():
    if not README.exists():
        return []
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


@pytest.mark.skipif(not README.exists(), reason="README.md is not beside the tests")
@pytest.mark.parametrize("index", range(len(readme_blocks())))
def test_readme_python_blocks_run(index, tmp_path, monkeypatch):
    block = readme_blocks()[index]
    monkeypatch.chdir(tmp_path)  # files a block writes (journals) land here
    if block.lstrip().startswith(">>>"):
        test = doctest.DocTestParser().get_doctest(block, {}, f"README[{index}]", None, 0)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test)
        assert runner.failures == 0
        return
    needs = re.search(r"# needs: (\S+)", block)
    if needs:
        found = pytest.importorskip(
            needs.group(1), reason=f"this README block needs {needs.group(1)}"
        )
        if getattr(found, "__file__", None) is None:  # a bare folder of that name, say /tmp/ray
            pytest.skip(f"this README block needs {needs.group(1)}, not installed here")
    launch = re.search(r"# launch: mpiexec -n (\d+)", block)
    if launch:  # run as the README says: a script under MPI
        launcher = shutil.which("mpiexec", path=os.path.dirname(sys.executable))
        if launcher is None:
            pytest.skip("no mpiexec beside this Python: the [mpi] extra installs MPICH's")
        (tmp_path / "count.py").write_text(block)
        result = subprocess.run(
            [launcher, "-n", launch.group(1), sys.executable, "-m", "mpi4py.futures", "count.py"],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        assert result.stdout.split() == ["365596"]
        return
    exec(compile(block, f"README[{index}]", "exec"), {"__name__": "__main__"})


NOTEBOOKS = sorted((README.parent / "docs" / "examples").glob("*.ipynb"))


@pytest.mark.skipif(not NOTEBOOKS, reason="the example notebooks are not beside the tests")
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_example_notebooks_run(path, monkeypatch, tmp_path, capsys):
    # each code cell in turn, in one namespace, as a kernel would; a cell's last
    # expression is what the notebook shows: its rich form must be there too
    import ast
    import json

    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__main__"}
    shown = []
    for cell in json.loads(path.read_text())["cells"]:
        if cell["cell_type"] != "code":
            continue
        tree = ast.parse("".join(cell["source"]))
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, path.name, "exec"), namespace)
        if last is not None:
            shown.append(eval(compile(ast.Expression(last.value), path.name, "eval"), namespace))
    assert any(hasattr(value, "_repr_svg_") for value in shown)  # a board, drawn
    estimates = [value for value in shown if isinstance(value, nqueens.Estimate)]
    assert estimates

    class Printer:  # IPython's pretty printer, as far as _repr_pretty_ uses it
        text = shown.append

    estimates[0]._repr_pretty_(Printer, False)
    assert shown[-1].startswith("N = 19: about")


def test_version_and_implementation():
    # a release, or a development build towards one (PEP 440)
    assert re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+(\.dev[0-9]+)?", nqueens.__version__)
    assert nqueens.IMPLEMENTATION in ("cython", "python")
    # the variant that runs: the twins have none
    if nqueens.IMPLEMENTATION == "python":
        assert nqueens.CPU == "python"
    else:
        assert nqueens.CPU in nqueens._select.quadrants.cpu_levels()


API_PAGE = README.parent / "docs" / "api.rst"


@pytest.mark.skipif(not API_PAGE.exists(), reason="docs/ is not beside the tests")
def test_the_api_reference_names_every_public_name():
    page = API_PAGE.read_text()
    missing = [name for name in nqueens.__all__ if f"nqueens.{name}\n" not in page]
    assert missing == []
