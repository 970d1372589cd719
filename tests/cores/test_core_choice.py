"""Which core loads: the environment variable, the fallback and its warning."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

CODE = "import nqueens; print(nqueens.IMPLEMENTATION)"


def run(code, **env):
    return subprocess.run(
        [sys.executable, "-W", "error::UserWarning", "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=True,
    )


def test_purepython_variable_forces_the_twin_without_a_warning():
    result = run(CODE, NQUEENS_PUREPYTHON="1")
    assert result.stdout.strip() == "python"
    assert result.stderr == ""


@pytest.mark.native
@pytest.mark.parametrize("value", ["", "0", "false", "no", "off", "False", " OFF "])
def test_the_extension_loads_by_default_and_when_the_variable_says_no(value):
    result = run(CODE, NQUEENS_PUREPYTHON=value)
    assert result.stdout.strip() == "cython"


@pytest.mark.parametrize("value", ["1", "true", "yes", "on", "TRUE"])
def test_a_true_value_forces_the_twin(value):
    result = run(CODE, NQUEENS_PUREPYTHON=value)
    assert result.stdout.strip() == "python"


def test_missing_extension_falls_back_with_one_runtime_warning():
    # make the extension unimportable, as on a platform without a wheel
    code = "import sys; sys.modules['nqueens._bitsolver'] = None; " + CODE
    result = run(code, NQUEENS_PUREPYTHON="")
    assert result.stdout.strip() == "python"
    warnings = [line for line in result.stderr.splitlines() if "RuntimeWarning" in line]
    assert len(warnings) == 1
    assert "slower" in warnings[0] and "wheel" in warnings[0]
