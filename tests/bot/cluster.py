"""A real local Redis Cluster for the tests: three primaries and three replicas, started
from `redis-server` itself and joined by `redis-cli --cluster create`."""

from __future__ import annotations

import asyncio
import random
import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

from redis.asyncio import Redis

NODES = 6  # three primaries, each with one replica


async def command(node: Redis, *args: str) -> Any:
    """A raw command to one node (`CLUSTER SLOTS`, `ROLE`, ...), its reply as Redis gives it."""
    # redis-py leaves Redis.execute_command unannotated
    return await node.execute_command(*args)  # type: ignore[no-untyped-call]


def _free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def node_port(taken: list[int]) -> int:
    """A free port for a cluster node: at most 55535, with its bus port (+10000) free."""
    rng = random.Random()
    while True:
        port = rng.randrange(20000, 45000)
        if port not in taken and _free(port) and _free(port + 10000):
            return port


def available() -> bool:
    return bool(shutil.which("redis-server") and shutil.which("redis-cli"))


class LocalCluster:
    def __init__(self, directory: Path) -> None:
        self.dir = directory
        self.ports: list[int] = []
        for _ in range(NODES):
            self.ports.append(node_port(self.ports))
        self.procs: list[subprocess.Popen[bytes]] = []

    @property
    def url(self) -> str:
        """One node's address: the client learns the others from it."""
        return f"redis://127.0.0.1:{self.ports[0]}/0"

    def start(self, timeout: float = 60.0) -> None:
        for port in self.ports:
            node_dir = self.dir / str(port)
            node_dir.mkdir(parents=True)
            self.procs.append(
                subprocess.Popen(
                    [
                        *("redis-server", "--port", str(port), "--bind", "127.0.0.1"),
                        *("--dir", str(node_dir), "--save", "", "--appendonly", "no"),
                        *("--cluster-enabled", "yes", "--cluster-node-timeout", "3000"),
                    ],
                    stdout=subprocess.DEVNULL,
                )
            )
        deadline = time.monotonic() + timeout
        for port in self.ports:
            while (
                subprocess.run(
                    ["redis-cli", "-p", str(port), "ping"], capture_output=True, check=False
                ).stdout.strip()
                != b"PONG"
            ):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server on {port} did not start")
                time.sleep(0.05)
        subprocess.run(
            ["redis-cli", "--cluster", "create"]
            + [f"127.0.0.1:{p}" for p in self.ports]
            + ["--cluster-replicas", "1", "--cluster-yes"],
            capture_output=True,
            check=True,
            timeout=timeout,
        )
        while not self._ready():
            if time.monotonic() > deadline:
                raise RuntimeError("the cluster did not become ready")
            time.sleep(0.1)

    def _info(self, port: int, *command: str) -> str:
        out = subprocess.run(
            ["redis-cli", "-p", str(port), *command], capture_output=True, check=False
        )
        return out.stdout.decode()

    def _ready(self) -> bool:
        for port in self.ports:
            if "cluster_state:ok" not in self._info(port, "cluster", "info"):
                return False
            replication = self._info(port, "info", "replication")
            if "role:slave" in replication and "master_link_status:up" not in replication:
                return False
        return True

    def stop(self) -> None:
        for proc in self.procs:
            proc.kill()
            proc.wait()
        self.procs.clear()

    async def failover(self, key: str, timeout: float = 60.0) -> tuple[int, int]:
        """A manual failover of the primary that holds `key`'s slot (`CLUSTER FAILOVER` on
        its replica: it takes over once it has every write the primary acknowledged).
        Returns (old primary's port, new primary's port) once the cluster agrees."""
        deadline = time.monotonic() + timeout
        first = Redis(port=self.ports[0], decode_responses=True)
        try:
            slot = int(await command(first, "CLUSTER", "KEYSLOT", key))
            while True:  # the node's view may not list the slot's replica yet: wait for it
                shards = await command(first, "CLUSTER", "SLOTS")
                found = [
                    (int(primary[1]), int(replicas[0][1]))
                    for start, end, primary, *replicas in shards
                    if start <= slot <= end and replicas
                ]
                if found:
                    old, new = found[0]
                    break
                if time.monotonic() > deadline:
                    raise RuntimeError(f"no primary with a replica holds slot {slot}")
                await asyncio.sleep(0.1)
        finally:
            await first.aclose()
        replica = Redis(port=new, decode_responses=True)
        try:
            await command(replica, "CLUSTER", "FAILOVER")
            while True:
                role = await command(replica, "ROLE")
                if role[0] == "master" and "cluster_state:ok" in self._info(old, "cluster", "info"):
                    return old, new
                if time.monotonic() > deadline:
                    raise RuntimeError("the failover did not complete")
                await asyncio.sleep(0.1)
        finally:
            await replica.aclose()
