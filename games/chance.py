"""The games' chance: new games' seeds, and the random stream for a seed and labels.

Every die, deal and shuffle of an engine comes from `stream(seed, *labels)`: a fresh
generator for one use, named by labels (`games.engine.counter_rng` numbers the uses of
a state; a few engines add words of their own, e.g. ДОМИНА*С's hand numbering). The
seed is the game's secret: views never show it, and a player must not be able to work
it out from the dice he sees, nor predict the dice to come.

`new_seed()` draws 128 bits from `secrets` for a new game (the lobby's), always at or
above `KEYED_FROM`. `stream` derives the generator in one of two ways, by the seed:

- at or above `KEYED_FROM` (2**64): a `KeyedRandom` — BLAKE2b keyed by a hash of the
  seed and the labels, in counter mode. Its outputs say nothing usable about its key,
  and one label's stream says nothing about another's; there is no state to rebuild.
- below it: `random.Random("seed:label:…")`, the derivation of every game before
  128-bit seeds, kept exactly so that stored records (lobby seeds were below 2**31)
  still load and replay to the same positions. The searcher's sampled worlds
  (`games.search.fresh_seed`, 40 bits) take it too: their dice are the searcher's own
  guesses, nothing is secret there, and the Mersenne Twister is the faster.

Why 2**64: far above every seed drawn before (2**31 by the lobby, 2**40 by the search,
small numbers in tests and docs), far below every new one (≥ 2**128), and a clean line
to state: a seed that fits in 64 bits is an old one.

    >>> s = new_seed()
    >>> s >= KEYED_FROM, s.bit_length()
    (True, 129)
    >>> stream(7, 1).random() == random.Random("7:1").random()  # an old seed: as before
    True
    >>> big = 2**128 + 12345
    >>> stream(big, 1).randrange(6) == stream(big, 1).randrange(6)  # replays
    True
    >>> isinstance(stream(big, 1), KeyedRandom), isinstance(stream(7, 1), KeyedRandom)
    (True, False)
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
from typing import Any

KEYED_FROM = 2**64  # seeds at or above: the keyed stream; below: the old derivation
SEED_BITS = 128  # the random bits of a new seed

Label = int | str

_BLOCK = 64  # bytes of one BLAKE2b output, one block of the stream
_KEY = 32  # bytes of a stream's key
_SEED_PERSON = b"nastolka.seed"  # BLAKE2b personalisations: one purpose each
_STREAM_PERSON = b"nastolka.stream"
_BLOCK_PERSON = b"nastolka.block"


def new_seed() -> int:
    """A new game's seed: `SEED_BITS` random bits from `secrets`, under a leading bit
    that keeps every new seed in the keyed range (≥ `KEYED_FROM`) whatever the draw.

    >>> a, b = new_seed(), new_seed()
    >>> a != b and min(a, b) >= 2**SEED_BITS
    True
    """
    return (1 << SEED_BITS) | secrets.randbits(SEED_BITS)


def stream(seed: int, *labels: Label) -> random.Random:
    """The generator for one use of chance, named by `labels`: the same seed and labels
    always give the same generator; an old seed (below `KEYED_FROM`) gives exactly
    `random.Random(f"{seed}:{label}:…")`, as before 128-bit seeds.

    >>> stream(7, "numbers", 1, 0).getrandbits(32) == random.Random("7:numbers:1:0").getrandbits(32)
    True
    """
    if seed < KEYED_FROM:
        return random.Random(":".join(str(x) for x in (seed, *labels)))
    return KeyedRandom(stream_key(seed, *labels))


def stream_key(seed: int, *labels: Label) -> bytes:
    """The key of the keyed stream for `seed` and `labels`: a keyed hash of the labels
    (as JSON, so `1` and `"1"` differ) under a hash of the seed."""
    raw = seed.to_bytes((seed.bit_length() + 7) // 8, "big")
    root = hashlib.blake2b(raw, digest_size=_KEY, person=_SEED_PERSON).digest()
    text = json.dumps(list(labels), separators=(",", ":")).encode()
    return hashlib.blake2b(text, key=root, digest_size=_KEY, person=_STREAM_PERSON).digest()


class KeyedRandom(random.Random):
    """A `random.Random` whose bits are BLAKE2b(key, block number), block after block.

    Every method goes through `getrandbits` (`randrange`, `randint`, `choice`, `shuffle`,
    `sample` by `_randbelow_with_getrandbits`, which `random.Random.__init_subclass__`
    picks because this class defines `getrandbits`) or `random` (53 bits of it). The
    Mersenne Twister inside the base class is never seeded nor used. Its state is the
    key, the next block number and the unread bytes of the last block.

    >>> r = KeyedRandom(bytes(32))
    >>> r.getstate()[0], len(r.getstate())
    ('keyed-blake2b', 4)
    >>> x = [r.randrange(100) for _ in range(3)]
    >>> r2 = KeyedRandom(bytes(32))
    >>> [r2.randrange(100) for _ in range(3)] == x
    True
    """

    STATE_TAG = "keyed-blake2b"  # first item of `getstate()`

    def __init__(self, key: bytes) -> None:
        self._key = b""
        self._block = 0
        self._buffer = b""
        super().__init__(key)  # calls `seed(key)`

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Rekey: `a` is the key (16 to 64 bytes), the stream starts again. Nothing else is
        accepted: this stream is never seeded from the clock or from a small number."""
        if not isinstance(a, bytes | bytearray) or not 16 <= len(a) <= 64:
            raise TypeError("KeyedRandom needs a key of 16 to 64 bytes")
        self._key = bytes(a)
        self._block = 0
        self._buffer = b""
        self.gauss_next = None

    def _take(self, n: int) -> bytes:
        while len(self._buffer) < n:
            counter = self._block.to_bytes(16, "big")
            h = hashlib.blake2b(counter, key=self._key, digest_size=_BLOCK, person=_BLOCK_PERSON)
            self._buffer += h.digest()
            self._block += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def getrandbits(self, k: int, /) -> int:
        """`k` random bits: the next ⌈k/8⌉ bytes of the stream, their top bits dropped."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        n = (k + 7) // 8
        return int.from_bytes(self._take(n), "little") >> (8 * n - k)

    def random(self) -> float:
        """A float in [0, 1): 53 bits of the stream, as `random.Random` makes one."""
        return self.getrandbits(53) * 2.0**-53

    def getstate(self) -> tuple[Any, ...]:
        return (self.STATE_TAG, self._key, self._block, self._buffer)

    def setstate(self, state: tuple[Any, ...]) -> None:
        version, key, block, buffer = state
        if version != self.STATE_TAG:
            raise ValueError(f"state of another generator: {version!r}")
        self.seed(key)
        self._block, self._buffer = int(block), bytes(buffer)

    def __reduce__(self) -> tuple[Any, ...]:
        return self.__class__, (self._key,), self.getstate()


__all__ = ["KEYED_FROM", "SEED_BITS", "KeyedRandom", "Label", "new_seed", "stream", "stream_key"]
