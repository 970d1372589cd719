"""Where a benchmark ran: the machine, the interpreter and the core, for every report.

>>> facts = context(["nqueens", "bench"])
>>> facts["command"], facts["cores"] >= 1, facts["package"].startswith("nqueens-count ")
('nqueens bench', True, True)
>>> busy({"cores": 2, "busy_before": 0.1}), busy({"cores": 2, "busy_before": 1.4})
(False, True)
"""

from __future__ import annotations

import datetime
import os
import platform
import shlex
import sys
import time
from collections.abc import Sequence
from typing import Any

from .._select import CPU, IMPLEMENTATION, bitsolver as core
from .._validate import available_cores
from .._version import DISTRIBUTION, __version__

# a machine is busy when something else keeps this share of its cores running
BUSY_SHARE = 0.5


def cpu_model() -> str:
    """The processor's model name, as the OS tells it ("unknown" where it does not)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as info:
            for line in info:
                key, _, value = line.partition(":")
                if key.strip() in ("model name", "Hardware", "Processor") and value.strip():
                    return value.strip()
    except OSError:
        pass
    if sys.platform == "darwin":
        import subprocess

        try:
            found = subprocess.run(
                ["sysctl", "-n", "machdep.cpu.brand_string"],
                capture_output=True,
                text=True,
                timeout=5,
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            found = ""
        if found:
            return found
    return platform.processor() or "unknown"


def memory_bytes() -> int | None:
    """The machine's physical memory, or None where the OS does not say."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        return None


def load_average() -> float | None:
    """The one-minute load average, or None where there is none (Windows)."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def _cpu_ticks() -> tuple[int, int] | None:
    # (busy, total) clock ticks of all CPUs since boot, from /proc/stat
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            fields = [int(v) for v in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle and iowait
    return sum(fields) - idle, sum(fields)


def cores_at_work(interval: float = 0.5) -> float | None:
    """How many cores other work keeps busy, measured over interval seconds (Linux),
    else the one-minute load average; None where neither is known."""
    first = _cpu_ticks()
    if first is None:
        return load_average()
    time.sleep(interval)
    second = _cpu_ticks()
    if second is None or second[1] == first[1]:
        return load_average()
    share = (second[0] - first[0]) / (second[1] - first[1])
    return round(share * (os.cpu_count() or 1), 2)


def context(argv: Sequence[str]) -> dict[str, Any]:
    """The facts a report states about its run; argv is the command line."""
    memory = memory_bytes()
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "command": shlex.join(argv),
        "cpu": cpu_model(),
        "architecture": platform.machine(),
        "cores": available_cores(),
        "memory_gib": None if memory is None else round(memory / 2**30, 1),
        "os": platform.platform(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "package": f"{DISTRIBUTION} {__version__}",
        "core": IMPLEMENTATION,
        "variant": CPU,
        "compiler": core.COMPILER,
        "cflags": core.CFLAGS,
        "load_before": load_average(),
        "busy_before": cores_at_work(),
    }


def busy(facts: dict[str, Any]) -> bool:
    """Whether other work kept the machine busy just before the run (the load
    average lags a minute: it still counts work that has ended)."""
    load = facts.get("busy_before")
    return load is not None and load >= BUSY_SHARE * facts["cores"]


def facts_text(facts: dict[str, Any]) -> str:
    """The context as one paragraph of a report."""
    memory = "" if facts["memory_gib"] is None else f", {facts['memory_gib']} GiB"
    built = (
        "the pure-Python twin"
        if facts["core"] == "python"
        else f"the Cython core built by {facts['compiler']} ({facts['cflags'] or 'no flags'}"
        + (f"; its {facts['variant']} variant" if facts.get("variant") else "")
        + ")"
    )
    loads = ", ".join(
        f"{when} {facts[key]}"
        for when, key in (("before", "load_before"), ("after", "load_after"))
        if facts.get(key) is not None
    )
    if facts.get("busy_before") is not None:
        loads += f"; cores at work just before: {facts['busy_before']}"
    return (
        f"{facts['date']}: {facts['cpu']} ({facts['architecture']}, {facts['cores']} cores"
        f"{memory}), {facts['os']}, {facts['python']}, {facts['package']} on {built}. "
        f"Load average {loads or 'not known'}. Command: `{facts['command']}`."
    )
