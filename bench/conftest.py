"""Shared pieces of the benchmark suite: the plain C baseline, built on the spot."""

from __future__ import annotations

import ctypes
import pathlib
import shutil
import subprocess

import pytest

HERE = pathlib.Path(__file__).parent


@pytest.fixture(scope="session")
def baseline(tmp_path_factory: pytest.TempPathFactory):
    """count(n) from bench/baseline.c compiled with `cc -O3`, called through ctypes."""
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler (cc, gcc or clang) on PATH: the plain C baseline is not timed")
    library = tmp_path_factory.mktemp("baseline") / "libbaseline.so"
    subprocess.run(
        [cc, "-O3", "-shared", "-fPIC", "-o", str(library), str(HERE / "baseline.c")], check=True
    )
    lib = ctypes.CDLL(str(library))
    lib.count.argtypes = [ctypes.c_int]
    lib.count.restype = ctypes.c_uint64
    return lib.count
