"""bench/paired.py: pairs run in alternating order, medians of each side and of the ratios."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import paired


def test_a_command_that_sleeps_longer_has_the_larger_share():
    quick = [sys.executable, "-c", "pass"]
    slow = [sys.executable, "-c", "import time; time.sleep(0.3)"]
    result = paired.measure(quick, slow, pairs=3, warmup=0)
    assert result["first"] < result["second"]
    assert result["low"] <= result["ratio"] <= result["high"] < 1


def test_a_failed_run_stops_the_measurement():
    with pytest.raises(subprocess.CalledProcessError):
        paired.measure(
            [sys.executable, "-c", "raise SystemExit(3)"], [sys.executable, "-c", "pass"], 1, 0
        )


def test_two_commands_are_required(capsys):
    assert paired.main(["--pairs", "2", "--", "true"]) == 2
    assert "usage" in capsys.readouterr().err
