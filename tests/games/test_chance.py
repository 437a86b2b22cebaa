"""Unpredictable chance (issue 30, point 1): new games get 128-bit seeds from `secrets`, a
big seed's dice come from a keyed stream that reveals nothing of its key and replays the
same game, and an old (small) seed gives exactly the dice it gave before (`games/chance.py`).
"""

from __future__ import annotations

import ast
import copy
import hashlib
import json
import pickle
import random
import secrets
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import games
from games import replay
from games.automation import settle
from games.chance import KEYED_FROM, SEED_BITS, KeyedRandom, new_seed, stream

BIG = 2**128 + 0x5EED_0F_1A57_CA11


# ---------------------------------------------------------------- the seed


def test_a_new_seed_has_128_random_bits_from_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    seeds = [new_seed() for _ in range(200)]
    assert len(set(seeds)) == len(seeds)
    assert all(s >= KEYED_FROM and s.bit_length() == SEED_BITS + 1 for s in seeds)
    for bit in range(SEED_BITS):  # every one of the 128 bits is drawn: seen set and clear
        assert len({(s >> bit) & 1 for s in seeds}) == 2, bit
    drawn: list[int] = []

    def randbits(k: int) -> int:
        drawn.append(k)
        return 0

    monkeypatch.setattr(secrets, "randbits", randbits)
    assert new_seed() == 2**SEED_BITS and drawn == [SEED_BITS]


def test_the_lobby_draws_its_seeds_with_new_seed() -> None:
    """bot/service/lobby.py starts a game with `new_seed()` (read from the source: the bot
    takes seconds to import)."""
    source = Path(__file__).parents[2] / "bot" / "service" / "lobby.py"
    tree = ast.parse(source.read_text())
    calls = {
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }
    assert "new_seed" in calls
    assert "randrange" not in source.read_text()


def test_a_big_seed_is_stored_whole() -> None:
    """The record's seed, the memory's start step and every engine's state keep all its
    digits through their JSON."""
    from bot.memory.steps import _Start, start_of
    from bot.storage.base import GameRecord

    seed = new_seed()
    rec = GameRecord(chat_id=1, uid="u", game_id="hypnosia", creator=1, seed=seed)
    assert GameRecord.model_validate_json(rec.model_dump_json()).seed == seed
    assert start_of([_Start([1, 2], seed, None).text])["seed"] == seed
    for game_id in games.ids():
        g: Any = games.get(game_id)
        s = g.new([1, 2, 3, 4], seed=seed)
        assert type(s).model_validate_json(s.model_dump_json()).seed == seed


# ---------------------------------------------------------------- old seeds


FIELDS = ["order", "hands", "bazaar", "first", "entered", "roll_off", "rolloff", "bank"]
FIELDS += ["dice", "dice_off", "out", "tokens", "turn", "rng_calls"]


def _chance_digest(game_id: str, n: int, seed: int, steps: int = 60) -> str:
    """What chance decided in a game played by `random.Random(0)`: the deals, the orders,
    the dice, settled after every step."""
    g: Any = games.get(game_id)
    s = g.new(list(range(1, n + 1)), seed=seed)
    pick = random.Random(0)
    trace = []
    for _ in range(steps):
        s, _ = settle(g, s)
        d = s.model_dump(mode="json")
        trace.append({k: d[k] for k in FIELDS if k in d})
        if g.is_over(s):
            break
        legal = g.legal_actions_for(s, g.deciders(s)[0])
        s, _ = g.apply(s, legal[pick.randrange(len(legal))])
    text = json.dumps(trace, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# computed with the engines before 128-bit seeds (all chance from `random.Random`)
BEFORE = [
    ("cell_capture", 3, 5, "0154ece243bb0393"),
    ("dominas", 3, 3, "520f05d6209187c2"),
    ("hypnosia", 3, 1, "3f13be98cad3b96b"),
    ("sea_cross", 3, 3, "dd43649193bd553c"),
    ("seven_tracks", 3, 7, "8026cafe03273d3e"),
    ("dominas", 4, 2**40 + 1, "31bc484f80cffacb"),
    ("seven_tracks", 2, 2**63, "c3741e062f5ebc4d"),
]


@pytest.mark.parametrize(("game_id", "n", "seed", "digest"), BEFORE)
def test_an_old_seed_deals_and_rolls_as_before(
    game_id: str, n: int, seed: int, digest: str
) -> None:
    assert _chance_digest(game_id, n, seed) == digest


def test_an_old_seed_streams_as_before() -> None:
    """The three derivations the engines used: a counter, the first order, the numbers."""
    assert [stream(7, k).getrandbits(32) for k in (1, 2, 3)] == [4248973237, 1079836010, 3325856070]
    assert stream(5, 0).random() == 0.026435930669147956
    assert [stream(2**64 - 1, "numbers", 2, x).randrange(1000) for x in (0, 1)] == [330, 213]
    assert type(stream(2**64 - 1, 1)) is random.Random
    assert type(stream(2**64, 1)) is KeyedRandom


# ---------------------------------------------------------------- big seeds


def _played(game_id: str, seed: int, steps: int = 80) -> tuple[list[int], list[str], Any]:
    """A random game from `seed` (formalities settled), its steps as a record keeps them."""
    g: Any = games.get(game_id)
    players = [1, 2, 3, 4]
    s = g.new(players, seed=seed)
    rng = random.Random(seed)
    codes: list[str] = []
    for _ in range(steps):
        while (a := None if g.is_over(s) else g.forced(s)) is not None:
            codes.append(g.encode_action(a))
            s, _ = g.apply(s, a)
        if g.is_over(s):
            break
        a = rng.choice(g.legal_actions_for(s, rng.choice(g.deciders(s))))
        codes.append(g.encode_action(a))
        s, _ = g.apply(s, a)
    return players, codes, s


@pytest.mark.parametrize("game_id", games.ids())
def test_a_big_seed_replays_the_same_game(game_id: str) -> None:
    seed = new_seed()
    players, codes, end = _played(game_id, seed)
    assert replay.replay(game_id, players, seed, None, codes) == end
    assert _played(game_id, seed)[2] == end
    other = games.get(game_id).new(players, seed=seed + 1)
    assert (
        other.model_dump(exclude={"seed"})
        != games.get(game_id).new(players, seed=seed).model_dump(exclude={"seed"})
        or game_id == "cell_capture"
    )  # 4 players: 24 orders


# ---------------------------------------------------------------- the keyed stream


def _bits(r: random.Random, k: int = 256) -> int:
    return r.getrandbits(k)


def test_related_keys_give_unrelated_streams() -> None:
    """Neighbouring seeds, labels and a label's type: about half the bits differ, as for
    independent draws (256 bits: 128 ± 8 expected, 128 ± 48 asserted)."""
    streams = [
        stream(BIG, 1),
        stream(BIG, 2),
        stream(BIG + 1, 1),
        stream(BIG ^ (1 << 100), 1),
        stream(BIG, "1"),
        stream(BIG, "numbers", 1, 0),
        stream(BIG, "numbers", 1, 1),
    ]
    outs = [_bits(r) for r in streams]
    for i, a in enumerate(outs):
        for b in outs[i + 1 :]:
            assert 80 <= bin(a ^ b).count("1") <= 176
    assert _bits(stream(BIG, 1)) == outs[0]


def test_the_keyed_stream_is_not_a_mersenne_twister() -> None:
    r = stream(BIG, 1)
    assert isinstance(r, KeyedRandom)
    state = r.getstate()
    assert state[0] == KeyedRandom.STATE_TAG and len(state) == 4
    assert not any(isinstance(x, tuple) and len(x) >= 624 for x in state)
    # the base generator is never used: two keyed streams differ though its state is alike
    assert random.Random.getstate(r) == random.Random.getstate(stream(BIG, 2))
    assert _bits(r) != _bits(stream(BIG, 2))


def test_the_keyed_stream_serves_every_method() -> None:
    r = stream(BIG, 3)
    assert KeyedRandom._randbelow is random.Random._randbelow_with_getrandbits  # type: ignore[attr-defined]
    dice = Counter(r.randint(1, 6) for _ in range(6000))
    assert set(dice) == set(range(1, 7)) and all(850 <= c <= 1150 for c in dice.values())
    deck = list(range(84))
    r.shuffle(deck)
    assert sorted(deck) == list(range(84)) and deck != list(range(84))
    assert 0 <= r.random() < 1 and r.choice("abc") in "abc" and len(set(r.sample(range(9), 9))) == 9
    assert r.getrandbits(0) == 0 and r.randrange(2**200) < 2**200 and len(r.randbytes(5)) == 5
    with pytest.raises(ValueError):
        r.getrandbits(-1)
    with pytest.raises(TypeError):
        r.seed(5)
    saved = r.getstate()
    ahead = [r.randrange(1000) for _ in range(20)]
    r.setstate(saved)
    assert [r.randrange(1000) for _ in range(20)] == ahead
    for clone in (copy.deepcopy(r), pickle.loads(pickle.dumps(r))):
        assert _bits(clone) == _bits(copy.deepcopy(r))
