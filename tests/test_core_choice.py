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
def test_the_extension_loads_by_default():
    result = run(CODE, NQUEENS_PUREPYTHON="")
    assert result.stdout.strip() == "cython"
    result = run(CODE, NQUEENS_PUREPYTHON="0")
    assert result.stdout.strip() == "cython"


def test_missing_extension_falls_back_with_one_runtime_warning():
    # make the extension unimportable, as on a platform without a wheel
    code = "import sys; sys.modules['nqueens._bitsolver'] = None; " + CODE
    result = run(code, NQUEENS_PUREPYTHON="")
    assert result.stdout.strip() == "python"
    warnings = [line for line in result.stderr.splitlines() if "RuntimeWarning" in line]
    assert len(warnings) == 1
    assert "slower" in warnings[0] and "wheel" in warnings[0]
