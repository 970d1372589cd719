"""Docs that run: every docstring example of the installed package, and every Python block
of the README and the documentation's pages, on the installed package."""

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


DOCS = README.parent / "docs"
PAGES = [README, *sorted(DOCS.rglob("*.md"))] if README.exists() else []


def python_blocks():
    """The Python of the README and the documentation's pages: a page's interactive
    examples as one doctest (in order, in one namespace, as a reader types them), and
    each script block alone."""
    blocks = []
    for page in PAGES:
        found = re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.S)
        name = page.relative_to(README.parent).as_posix()
        examples = "".join(block for block in found if block.lstrip().startswith(">>>"))
        if examples:
            blocks.append(pytest.param(examples, id=f"{name}[examples]"))
        scripts = [block for block in found if not block.lstrip().startswith(">>>")]
        blocks += [pytest.param(block, id=f"{name}[{i}]") for i, block in enumerate(scripts)]
    return blocks


def test_the_pages_hold_python_blocks():
    if not PAGES:
        pytest.skip("README.md and docs/ are not beside the tests")
    assert len(python_blocks()) >= 10


@pytest.mark.skipif(not PAGES, reason="README.md and docs/ are not beside the tests")
@pytest.mark.parametrize("block", python_blocks())
def test_every_python_block_of_the_pages_runs(block, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # files a block writes (journals) land here
    if block.lstrip().startswith(">>>"):
        test = doctest.DocTestParser().get_doctest(block, {}, "page", None, 0)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test)
        assert runner.failures == 0
        return
    needs = re.search(r"# needs: (\S+)", block)
    if needs:
        found = pytest.importorskip(needs.group(1), reason=f"this block needs {needs.group(1)}")
        if getattr(found, "__file__", None) is None:  # a bare folder of that name, say /tmp/ray
            pytest.skip(f"this block needs {needs.group(1)}, not installed")
    launch = re.search(r"# launch: mpiexec -n (\d+)", block)
    if launch:  # run as the page says: a script under MPI
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
    exec(compile(block, "page", "exec"), {"__name__": "__main__"})


def test_version_and_implementation():
    # a release, or a development build towards one (PEP 440)
    assert re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+(\.dev[0-9]+)?", nqueens.__version__)
    assert nqueens.IMPLEMENTATION in ("cython", "python")
    # the variant that runs: the twins have none
    if nqueens.IMPLEMENTATION == "python":
        assert nqueens.CPU == "python"
    else:
        assert nqueens.CPU in nqueens._select.quadrants.cpu_levels()


API_PAGE = README.parent / "docs" / "reference" / "api.rst"


@pytest.mark.skipif(not API_PAGE.exists(), reason="docs/ is not beside the tests")
def test_the_api_reference_names_every_public_name():
    page = API_PAGE.read_text()
    missing = [name for name in nqueens.__all__ if f"nqueens.{name}\n" not in page]
    assert missing == []
