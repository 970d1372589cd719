"""A Dask cluster on a real network: a scheduler and two workers, each in a network
namespace of its own, joined to this one by veth pairs on a bridge.  The count is
exact, and stays exact when one worker's link goes down mid-count (its units are
counted again on the other once the scheduler gives it up).

Needs root and `ip netns` (Linux): elsewhere the tests skip, loudly; CI runs as
root and sets NQUEENS_CLUSTER_TESTS=required, which turns a skip into a failure.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest

import nqueens
from nqueens._oeis import A000170

pytestmark = [pytest.mark.native, pytest.mark.slow]
REQUIRED = os.environ.get("NQUEENS_CLUSTER_TESTS") == "required"
SUBNET = "10.231.{}.{}"
PORT = 8786


def _cannot(reason: str) -> None:
    if REQUIRED:
        pytest.fail(f"NQUEENS_CLUSTER_TESTS=required, but {reason}")
    pytest.skip(f"NOT TESTED HERE: a Dask cluster on a real network: {reason}")


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check)


class Network:
    """A bridge here and one namespace per host, each with a veth pair to the bridge."""

    def __init__(self) -> None:
        self.tag = f"{os.getpid() % 10000:04d}{random.randrange(100):02d}"
        self.net = random.randrange(1, 250)
        self.bridge = f"nqb{self.tag}"
        self.hosts: dict[str, tuple[str, str]] = {}  # name -> (namespace, link here)
        self.processes: list[subprocess.Popen[bytes]] = []

    def address(self, host: int) -> str:
        return SUBNET.format(self.net, host)

    def up(self, names: list[str]) -> None:
        ip("link", "add", self.bridge, "type", "bridge")
        ip("addr", "add", f"{self.address(1)}/24", "dev", self.bridge)
        ip("link", "set", self.bridge, "up")
        for k, name in enumerate(names):
            space, here = f"nq{self.tag}{name}", f"nqv{self.tag}{k}"
            ip("netns", "add", space)
            self.hosts[name] = (space, here)
            ip("link", "add", here, "type", "veth", "peer", "name", "eth0", "netns", space)
            ip("link", "set", here, "master", self.bridge)
            ip("link", "set", here, "up")
            inside = ("netns", "exec", space, "ip")
            ip(*inside, "addr", "add", f"{self.address(k + 2)}/24", "dev", "eth0")
            ip(*inside, "link", "set", "eth0", "up")
            ip(*inside, "link", "set", "lo", "up")

    def start(self, name: str, *command: str, env: dict[str, str] | None = None) -> None:
        space = self.hosts[name][0]
        self.processes.append(
            subprocess.Popen(
                ["ip", "netns", "exec", space, sys.executable, *command],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env={**os.environ, **(env or {})},
                start_new_session=True,
            )
        )

    def cut(self, name: str) -> None:
        """The host's link goes down: nothing reaches it, nothing leaves it."""
        ip("link", "set", self.hosts[name][1], "down")

    def down(self) -> None:
        for process in self.processes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, 9)
            process.wait()
        for space, here in self.hosts.values():
            ip("link", "del", here, check=False)
            ip("netns", "del", space, check=False)
        ip("link", "del", self.bridge, check=False)


@pytest.fixture
def network() -> Iterator[Network]:
    if sys.platform != "linux" or shutil.which("ip") is None:
        _cannot("they need Linux's ip command")
    if os.geteuid() != 0:
        _cannot("they need root (network namespaces)")
    probe = f"nqprobe{os.getpid()}"
    made = ip("netns", "add", probe, check=False)
    if made.returncode != 0:
        _cannot(f"ip netns does not work here: {made.stderr.strip()}")
    ip("netns", "del", probe, check=False)
    found = Network()
    try:
        yield found
    finally:
        found.down()


def test_a_dask_cluster_across_namespaces_counts_exactly_and_survives_a_cut(network):
    distributed = pytest.importorskip("dask.distributed", reason="the [dask] extra is missing")
    network.up(["s", "a", "b"])
    scheduler = f"tcp://{network.address(2)}:{PORT}"
    # a worker that stops answering is given up after 3 s, not the default 5 minutes
    fast = {"DASK_DISTRIBUTED__SCHEDULER__WORKER_TTL": "3s"}
    network.start(
        "s", "-m", "distributed.cli.dask_scheduler", "--host", network.address(2),
        "--port", str(PORT), "--no-dashboard", env=fast,
    )  # fmt: skip
    for name, host in (("a", 3), ("b", 4)):
        network.start(
            name, "-m", "distributed.cli.dask_worker", scheduler, "--host",
            network.address(host), "--nthreads", "1", "--no-dashboard", "--no-nanny",
        )  # fmt: skip
    client = None
    deadline = time.monotonic() + 60
    while client is None:
        try:
            client = distributed.Client(scheduler, timeout="5s")
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)
    try:
        client.wait_for_workers(2, timeout=60)
        hosts = {info["host"] for info in client.scheduler_info()["workers"].values()}
        assert hosts == {network.address(3), network.address(4)}  # two hosts, not this one
        assert nqueens.count(16, workers=client) == A000170[16]
        # one worker's link goes down at a random moment of a count of some seconds
        moment = random.uniform(0.2, 0.8)
        cutter = threading.Timer(moment, network.cut, ("a",))
        cutter.start()
        try:
            assert nqueens.count(18, workers=client, units=64) == A000170[18], moment
        finally:
            cutter.cancel()
        assert len(client.scheduler_info()["workers"]) == 1  # the cut one was given up
    finally:
        client.close()
