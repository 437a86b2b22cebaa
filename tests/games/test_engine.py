"""The shared engine scaffolding (games/engine.py) on a toy game: count up to a limit."""

from __future__ import annotations

import random
from enum import StrEnum

import pytest
from pydantic import BaseModel

from games.engine import MalformedAction, RulesEngine, counter_rng, malformed
from games.protocol import Event, Fact, IllegalAction


class Phase(StrEnum):
    PLAY = "play"
    OVER = "over"


class Add(BaseModel, frozen=True):
    n: int

    def encode(self) -> str:
        return f"A,{self.n}"

    @classmethod
    def decode(cls, text: str) -> Add:
        tag, n = text.split(",")
        if tag != "A":
            raise ValueError(f"not an add: {text!r}\nsecond line")
        return cls(n=int(n))


class Added(Fact):
    kind = "added"
    n: int


class Left(Fact):
    kind = "left"


class Toy(BaseModel):
    seed: int = 0
    rng_calls: int = 0
    version: int = 0
    players: list[int]
    current: int = 0
    phase: Phase = Phase.PLAY
    total: int = 0
    left: list[int] = []


class ToyGame(RulesEngine[Toy, Add]):
    id = "toy"
    min_players = 1
    max_players = 2
    state_type = Toy
    action_type = Add
    over_phase = Phase.OVER

    def _candidates(self, s: Toy) -> list[Add]:
        return [Add(n=n) for n in (1, 2, 3)]

    def _why(self, s: Toy, a: Add) -> str | None:
        if a.n == 3:
            return "too_big"
        return None

    def _perform(self, s: Toy, a: Add, events: list[Event]) -> None:
        s.total += a.n
        s.current = (s.current + 1) % len(s.players)
        events.append(Event.of(Added(n=a.n)))
        if s.total >= 5:
            s.phase = Phase.OVER

    def _remove(self, s: Toy, seat: int, events: list[Event]) -> None:
        s.left.append(seat)
        events.append(Event.of(Left(), seat))

    def _left(self, s: Toy, seat: int) -> bool:
        return seat in s.left


GAME = ToyGame()


def test_apply_checks_copies_and_counts_versions() -> None:
    s = Toy(players=[7, 8])
    assert GAME.legal_actions(s) == [Add(n=1), Add(n=2)]
    assert GAME.to_act(s) == 7
    s2, events = GAME.apply(s, Add(n=2))
    assert (s.total, s.version) == (0, 0)
    assert (s2.total, s2.version, GAME.to_act(s2)) == (2, 1, 8)
    assert events == [Event.of(Added(n=2))]


def test_apply_refusals() -> None:
    s = Toy(players=[7])
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(s, "A,1")  # type: ignore[arg-type]
    assert (exc.value.code, exc.value.details) == ("malformed", {})
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(s, Add(n=3))
    assert (exc.value.code, exc.value.details) == ("too_big", {"action": "A,3"})
    with pytest.raises(IllegalAction) as exc:  # not a candidate
        GAME.apply(s, Add(n=9))
    assert (exc.value.code, exc.value.details) == ("malformed", {"action": "A,9"})


def test_game_over() -> None:
    s = Toy(players=[7], total=4)
    s, _ = GAME.apply(s, Add(n=1))
    assert GAME.is_over(s) and GAME.to_act(s) is None
    assert GAME.remove(s, 7) == (s, [])


def test_remove() -> None:
    s = Toy(players=[7, 8])
    with pytest.raises(IllegalAction) as exc:
        GAME.remove(s, 9)
    assert (exc.value.code, exc.value.details) == ("not_a_player", {"player": 9})
    s2, events = GAME.remove(s, 8)
    assert (s.left, s2.left, s2.version) == ([], [1], 1)
    assert events == [Event.of(Left(), seat=1)]
    assert GAME.remove(s2, 8) == (s2, [])


def test_codecs() -> None:
    assert GAME.encode_action(Add(n=2)) == "A,2"
    assert GAME.decode_action("A,2") == Add(n=2)
    with pytest.raises(IllegalAction) as exc:
        GAME.decode_action("B,2")
    assert exc.value.code == "malformed" and isinstance(exc.value.__cause__, ValueError)


def test_check_players() -> None:
    GAME._check_players([1, 2])
    with pytest.raises(ValueError, match=r"players: 1\.\.2 players are needed"):
        GAME._check_players([1, 2, 3])
    with pytest.raises(ValueError, match="players: duplicate player"):
        GAME._check_players([1, 1])


def test_malformed_action() -> None:
    with pytest.raises(MalformedAction) as exc:
        try:
            Add.decode("B,2")
        except ValueError as e:
            malformed(e)
    err = exc.value
    assert isinstance(err, IllegalAction) and isinstance(err, ValueError)
    assert (err.code, err.details) == ("malformed", {"reason": "not an add: 'B,2'"})
    assert err.__cause__ is None and err.__suppress_context__


def test_counter_rng() -> None:
    s = Toy(players=[7], seed=42)
    first = counter_rng(s).random()
    second = counter_rng(s).random()
    assert s.rng_calls == 2
    assert (first, second) == (random.Random("42:1").random(), random.Random("42:2").random())


def _random_states(game_id: str, n: int) -> list[BaseModel]:
    import games

    g = games.get(game_id)
    rng = random.Random(game_id)
    out: list[BaseModel] = []
    while len(out) < n:
        s = g.new([1, 2, 3, 4][: max(2, min(4, g.max_players))], seed=rng.randrange(10**6))
        for _ in range(rng.randrange(1, 300)):
            if g.is_over(s):
                break
            s, _ = g.apply(s, rng.choice(g.legal_actions(s)))
        out.append(s)
    return out


@pytest.mark.parametrize("game_id", ["seven_tracks", "sea_cross", "hypnosia", "dominas"])
def test_first_legal_and_a_batch_agree_with_legal_actions_and_apply(game_id: str) -> None:
    """`first_legal` picks what `legal_actions` allows; a batch gives the states and
    events of `apply` one by one, and leaves the state it was given unchanged."""
    import games

    g = games.get(game_id)
    assert isinstance(g, RulesEngine)  # these four share the base engine's batch
    rng = random.Random(1)
    for s in _random_states(game_id, 25):
        before = s.model_dump_json()
        legal = g.legal_actions(s)
        b = g.batch(s)
        expected, expected_events = s, []
        for _ in range(8):
            if g.is_over(expected):
                assert b.first(legal) is None
                break
            legal = g.legal_actions(expected)
            options = rng.sample(legal, min(3, len(legal)))
            assert g.first_legal(expected, options) == (options[0] if options else None)
            if not options:
                break
            a = b.first(options)
            assert a == options[0]
            expected, ev = g.apply(expected, a)
            expected_events += ev
            assert b.state.model_dump_json() == expected.model_dump_json()
        assert b.events == expected_events
        assert s.model_dump_json() == before


def test_a_batch_refuses_quietly_and_changes_nothing() -> None:
    s = Toy(players=[7, 8])
    b = GAME.batch(s)
    assert b.first([Add(n=3), Add(n=99)]) is None  # illegal, then not a candidate
    assert b.state == s and b.events == []
    assert b.first([Add(n=3), Add(n=2)]) == Add(n=2)
    assert b.first([Add(n=2)]) == Add(n=2)
    assert b.state.total == 4 and b.state.version == 2 and s.total == 0
    assert b.first([Add(n=1)]) == Add(n=1)  # the game is over now
    assert b.first([Add(n=1)]) is None and GAME.first_legal(b.state, [Add(n=1)]) is None
