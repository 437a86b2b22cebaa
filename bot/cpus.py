"""How many CPUs the bot may use, and how many render processes follow from that.

`RENDER_PROCESSES` defaults to `default_render_processes()`: one CPU is left to the bot's
own process (the event loop that answers presses first), the others draw pictures, at
least 1 and at most `MAX_RENDER_PROCESSES`. More than 4 buy nothing a bot can use: one
process draws a picture in 2–5 ms (200–500 a second), far above what Telegram lets a bot
send (about 30 messages a second in all), so extra processes only shorten the queue in a
burst, and each holds ~145 MB of warmed caches (docs/performance.md). On a 2-CPU box that
is 1, as before. An explicit `RENDER_PROCESSES` wins.

The CPUs counted are the ones this process may run on (`sched_getaffinity`: a cpuset, e.g.
`docker run --cpuset-cpus`), and no more than a cgroup v2 CPU quota allows
(`/sys/fs/cgroup/cpu.max`, e.g. `docker run --cpus 2` on a bigger host).

Example:
    >>> default_render_processes(2), default_render_processes(3), default_render_processes(16)
    (1, 2, 4)
    >>> quota_cpus("150000 100000"), quota_cpus("max 100000")
    (2, None)
"""

from __future__ import annotations

import math
import os
from pathlib import Path

MAX_RENDER_PROCESSES = 4
CPU_MAX = Path("/sys/fs/cgroup/cpu.max")


def quota_cpus(cpu_max: str) -> int | None:
    """Whole CPUs a cgroup v2 `cpu.max` line ("<quota> <period>" or "max <period>")
    allows, rounded up; None for no quota or a line it cannot read."""
    parts = cpu_max.split()
    if len(parts) != 2 or parts[0] == "max":
        return None
    try:
        quota, period = int(parts[0]), int(parts[1])
    except ValueError:
        return None
    if quota <= 0 or period <= 0:
        return None
    return max(1, math.ceil(quota / period))


def usable_cpus(cpu_max: Path = CPU_MAX) -> int:
    """The CPUs this process may run on, capped by its cgroup's CPU quota."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        n = os.cpu_count() or 1
    try:
        quota = quota_cpus(cpu_max.read_text())
    except OSError:
        quota = None
    return max(1, min(n, quota) if quota else n)


def default_render_processes(cpus: int | None = None) -> int:
    """`RENDER_PROCESSES` when it is not set: every CPU but one, between 1 and 4."""
    n = usable_cpus() if cpus is None else cpus
    return max(1, min(MAX_RENDER_PROCESSES, n - 1))
