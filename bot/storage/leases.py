"""A lease held while its work runs: renewed before it expires, given back at the end.

A lease (`Store.lock`) expires after its TTL so that a killed holder delays the others only
that long. Work that can outlast the TTL on a slow machine (a table's first picture from a
cold render process) keeps it with `kept`: the lease is renewed every third of its TTL, so
another instance never takes it while its holder is still working. A renewal that comes
too late (an event loop stalled for seconds) finds it expired: the holder is told
(`Lease.lost`, and a warning), so that it writes nothing more on the lease's behalf."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator

from bot.storage.base import Store, StoreUnavailable

log = logging.getLogger(__name__)


class Lease:
    """A lease being kept: `lost` once a renewal found it expired (another may hold it)."""

    lost = False


@contextlib.asynccontextmanager
async def kept(store: Store, name: str, token: str, ttl: float) -> AsyncIterator[Lease]:
    """Hold the lease `name` (taken with `token`) for as long as the block runs. The
    renewing task is told to stop and awaited, never cancelled: a store command cut off
    half-way could leave its reply on a shared connection."""
    done = asyncio.Event()
    lease = Lease()

    async def renew() -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(ttl / 3):
                    await done.wait()
            if done.is_set():
                return
            asked = time.monotonic()
            with contextlib.suppress(StoreUnavailable):
                if not await store.renew(name, token, ttl):
                    log.warning(
                        "lease %s lost: not renewed within %.0f s (renewal took %.1f s)",
                        name,
                        ttl,
                        time.monotonic() - asked,
                    )
                    lease.lost = True
                    return  # lost (expired in an outage): nothing more to hold

    keeper = asyncio.ensure_future(renew())
    try:
        yield lease
    finally:
        done.set()
        await keeper
        with contextlib.suppress(StoreUnavailable):
            await store.unlock(name, token)
