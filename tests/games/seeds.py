"""Seeds for the engines' property tests: half of them small (the derivation of games
before 128-bit seeds, which stored records keep), half drawn from the whole range of a
new game's seed (the keyed stream): `games/chance.py`."""

from __future__ import annotations

from hypothesis import strategies as st

from games.chance import KEYED_FROM, SEED_BITS

SEEDS = st.one_of(st.integers(0, 2**31), st.integers(KEYED_FROM, 2 ** (SEED_BITS + 1) - 1))
