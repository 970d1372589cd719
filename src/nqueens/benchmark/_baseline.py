"""The plain C baseline of the benchmarks, compiled on the spot with the system's cc.

``_baseline.c`` (also reachable as ``bench/baseline.c`` in the source tree)
is the recursive bitmask search with the mirror symmetry of row 0, written as
a C programmer would, so that the core's speed can be told as a ratio to it
measured in the same run.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import shutil
import subprocess
import tempfile
from importlib import resources
from typing import Callable


class BaselineUnavailable(RuntimeError):
    """The baseline could not be built here; the message says why."""


def compiler() -> str | None:
    """The C compiler to use: $CC, else cc, gcc or clang on PATH."""
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return name
    return None


def build(directory: str) -> Callable[[int], int]:
    """Compile the baseline into directory and return its count(n) through ctypes."""
    cc = compiler()
    if cc is None:
        raise BaselineUnavailable("no C compiler ($CC, cc, gcc or clang) on PATH")
    source = os.path.join(directory, "baseline.c")
    library = os.path.join(directory, "libnqueens_baseline.so")
    with open(source, "w") as out:
        out.write(resources.files("nqueens.benchmark").joinpath("_baseline.c").read_text())
    result = subprocess.run(
        [cc, "-O3", "-shared", "-fPIC", "-o", library, source], capture_output=True, text=True
    )
    if result.returncode != 0:
        raise BaselineUnavailable(f"{cc} failed: {result.stderr.strip()[:200]}")
    count = ctypes.CDLL(library).count
    count.argtypes = [ctypes.c_int]
    count.restype = ctypes.c_uint64
    return count


def build_temporary() -> Callable[[int], int]:
    """Like build(), in a temporary directory removed when the process exits (the
    library stays loaded)."""
    directory = tempfile.mkdtemp(prefix="nqueens-baseline-")
    atexit.register(shutil.rmtree, directory, ignore_errors=True)
    return build(directory)
