"""The checks a developer runs by hand, each in a fresh venv (``pip install nox``):

    nox -s lint       ruff, ruff format --check, mypy --strict, cython-lint (the [lint] pins)
    nox -s tests      the README's test command: the package with [test], then pytest
    nox -s pure       the fast tests on the pure-Python core (NQUEENS_PUREPYTHON=1)

.ci/run runs all of these and more (sanitizers, compilers, wheels); .pre-commit-config.yaml
runs the linters on each commit.
"""

from __future__ import annotations

import glob

import nox

nox.options.sessions = ["lint", "tests"]
LINTED = ["src", "tests", "bench", "setup.py", "noxfile.py"]
CORES = sorted(glob.glob("src/nqueens/*.pyx") + glob.glob("src/nqueens/*.pxi"))


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
