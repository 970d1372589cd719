"""The checks a developer runs by hand, each in a fresh venv (``pip install nox``):

    nox -s lint       ruff, ruff format --check, mypy --strict, cython-lint (the [lint] pins)
    nox -s tests      the README's test command: the package with [test], then pytest
    nox -s pure       the fast tests on the pure-Python core (NQUEENS_PUREPYTHON=1)
    nox -s emulated   every processor level's kernels emulated (-DNQ_EMULATE): their tests

.ci/run runs all of these and more (sanitizers, compilers, wheels); .pre-commit-config.yaml
runs the linters on each commit.
"""

from __future__ import annotations

import glob

import nox

nox.options.sessions = ["lint", "tests"]
LINTED = ["src", "tests", "bench", "setup.py", "noxfile.py"]
CORES = sorted(glob.glob("src/nqueens/*.pyx") + glob.glob("src/nqueens/_native/*.pxi"))


@nox.session
def lint(session: nox.Session) -> None:
    session.install(".[lint]")
    session.run("ruff", "check", *LINTED)
    session.run("ruff", "format", "--check", *LINTED)
    session.run("mypy", "--strict")
    session.run("cython-lint", *CORES)


@nox.session
def tests(session: nox.Session) -> None:
    session.install(".[test]")
    session.run("python", "-m", "pytest", "-n", "auto", *session.posargs)


@nox.session
def pure(session: nox.Session) -> None:
    session.env["NQUEENS_PUREPYTHON"] = "1"
    session.install(".[test]")
    session.run("python", "-m", "pytest", "-n", "2", "--no-native", "-m", "not slow")


@nox.session
def emulated(session: nox.Session) -> None:
    # the core built with -DNQ_EMULATE (see CONTRIBUTING.md): v3 and v4 on any x86-64
    session.install("setuptools>=77", "Cython>=3.1", "wheel", "simde-py==0.8.2.post1")
    simde = session.run(
        "python", "-c", "import simde_py; print(simde_py.get_include())", silent=True
    )
    session.env["CFLAGS"] = f"-DNQ_EMULATE -I{str(simde).strip()} -Wno-psabi"
    session.install("--no-build-isolation", "--no-cache-dir", ".[test]")
    # an emulated build says every level runs: else it was not built so
    levels = "from nqueens import _quadrants as q; assert len(q.cpu_levels()) == 3, q.cpu_levels()"
    session.run("python", "-c", levels)
    pytest = ("python", "-m", "pytest", "-n", "2")
    session.run(*pytest, "tests/cores/test_cpu.py")
    for cpu in ("v4", "v3"):
        session.env["NQUEENS_CPU"] = cpu
        session.run(*pytest, "-m", "not slow", "tests/cores/test_quadrants.py")
        session.run(*pytest, "-k", "fuzz", "tests/test_safety.py")
