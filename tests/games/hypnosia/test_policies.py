"""The novice policy, which also plays a timed-out turn (spec §5, AFK decision revised
2026-12): it makes progress — tokens leave the start, bridges are crossed — so a game with
an absent player ends normally instead of at the 200-round guard (R17c)."""

from __future__ import annotations

import random

import pytest

from games.hypnosia import GAME, Phase, State
from games.hypnosia.model import START, Action, ActionType, EndReason, Route, View
from games.hypnosia.policies import EXPERIENCED, NOVICE, landing
from games.policy import Policy

from .builder import BLUE, RED, build, roll

# A game ends by the centre, by the tokens, or when one player races alone (R17).
NORMAL_ENDS = (EndReason.CENTRE_FULL, EndReason.NO_TOKENS, EndReason.LAST_RACER)


def play_turn_by_timeout(s: State) -> State:
    seat, turn = s.current, s.turn_no
    while not GAME.is_over(s) and s.current == seat and s.turn_no == turn:
        s, _ = GAME.timeout(s)
    return s


def test_a_timed_out_turn_is_the_novice_s_rest_of_the_turn() -> None:
    """`timeout_turn`, what the bot plays for the absent player: the novice's `timeout`
    steps until his turn passes, from the roll or from the second die."""
    for seed in range(6):
        s = GAME.new([1, 2, 3], seed=seed)
        for _ in range(20):
            if GAME.is_over(s):
                break
            after, events = GAME.timeout_turn(s)
            assert after == play_turn_by_timeout(s) and events
            rolled, _ = GAME.timeout(s)  # the roll; then the dice, from his view
            if not GAME.is_over(rolled) and rolled.turn_no == s.turn_no:
                assert GAME.timeout_turn(rolled)[0] == after
            s = after


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_r17_a_game_of_absent_players_ends_by_the_centre_or_the_tokens(n: int) -> None:
    """Every turn timed out: each game ends by R17a or R17b, far from the R17c guard."""
    for seed in range(12):
        s = GAME.new(list(range(1, n + 1)), seed=seed)
        while not GAME.is_over(s):
            s = play_turn_by_timeout(s)
        assert s.end_reason in NORMAL_ENDS, (n, seed)
        assert s.round_no < 100, (n, seed, s.round_no)


def test_r8_r10_one_absent_player_gets_his_tokens_off_the_start_and_across_bridges() -> None:
    """Seat 0 is absent (every turn a timeout), the others play at random: his tokens all
    leave the start and cross bridges, and the games end normally (R17a, R17b)."""
    normal = 0
    games = 0
    for n in (2, 3, 4):
        for seed in range(15):
            s = GAME.new(list(range(1, n + 1)), seed=seed)
            r = random.Random(seed)
            crossed = False
            while not GAME.is_over(s):
                if s.current == 0:
                    before = list(s.tokens[0])
                    s = play_turn_by_timeout(s)
                    crossed |= any(
                        a.startswith("1.") and b.startswith(("2.", "3.", "C"))
                        for a, b in zip(before, s.tokens[0], strict=True)
                    )
                else:
                    s, _ = GAME.apply(s, r.choice(GAME.legal_actions(s)))
            games += 1
            normal += s.end_reason in NORMAL_ENDS
            if s.end_reason is EndReason.ROUND_LIMIT:  # the random players dawdled
                assert START not in s.tokens[0] and crossed, (n, seed)
    assert normal >= 0.9 * games, (normal, games)


def test_r11_the_novice_enters_the_centre_first() -> None:
    s = roll(build(tokens={RED: {1: "3.2", 2: "1.5"}}), 1, 4)
    a = GAME.timeout_action(s)
    assert (a.token, a.die, a.route) == (1, 1, Route.BRIDGE)
    assert landing(GAME.view(s, s.players[RED]), RED, a) == "C"


def test_r10_the_novice_crosses_a_bridge_rather_than_walk_off_it() -> None:
    s = roll(build(tokens={RED: {1: "1.9", 2: "1.20"}}), 2, 2)
    a = GAME.timeout_action(s)
    assert (a.token, a.route) == (1, Route.BRIDGE)  # 1.9 → 2.6 (+1) = 2.7


def test_r8_the_novice_stops_on_a_bridge_then_brings_tokens_off_the_start() -> None:
    s = roll(build(), 6, 6)
    a = GAME.timeout_action(s)
    # with a 6, №4 lands on 1.2, №3 on 1.3 (a bridge), №2 on 1.4: the bridge wins
    assert (a.token, a.die) == (3, 6) and landing(GAME.view(s, s.players[RED]), RED, a) == "1.3"
    s = roll(build(tokens={RED: {1: "1.20"}}), 4, 4)  # 1.24, or a token off the start
    a = GAME.timeout_action(s)
    assert GAME.view(s, None).players[RED].tokens[(a.token or 1) - 1] == START


def test_r12_the_novice_captures_when_nothing_better_is_on() -> None:
    s = roll(build(tokens={RED: {1: "1.20"}, BLUE: {1: "1.25"}}, rest="X"), 5, 2)
    legal = GAME.legal_actions(s)
    a = NOVICE.choose(GAME.view(s, s.players[RED]), legal, random.Random(0))
    assert a in legal and (a.token, a.die) == (1, 5)  # 1.20 + 5 = 1.25: Blue's token


def test_r5_the_roll_is_the_timeout_in_the_roll_phase_and_timeout_advances_the_state() -> None:
    s = GAME.new([1, 2], seed=4)
    assert s.phase is Phase.ROLL
    assert GAME.timeout_action(s) == Action(type=ActionType.ROLL)
    s2, events = GAME.timeout(s)
    assert s2.version == s.version + 1 and events[0].type == "rolled"


def test_r4_the_choice_depends_on_the_view_only_not_on_the_dice_to_come() -> None:
    """The seed (the dice to come) is hidden from everyone: it cannot change the choice."""
    for seed in range(30):
        s = GAME.new([1, 2, 3], seed=seed)
        r = random.Random(seed)
        for _ in range(r.randint(1, 60)):
            if GAME.is_over(s):
                break
            s, _ = GAME.apply(s, r.choice(GAME.legal_actions(s)))
        if GAME.is_over(s):
            continue
        other = s.model_copy(update={"seed": seed + 10_000, "rng_calls": s.rng_calls + 7})
        assert GAME.view(s, s.players[s.current]) == GAME.view(other, other.players[s.current])
        assert GAME.timeout_action(s) == GAME.timeout_action(other)


def _rounds(n: int, seed: int, policy: Policy[View, Action]) -> int:
    """The rounds of a game every seat of which `policy` plays (from its own view)."""
    s = GAME.new(list(range(1, n + 1)), seed=seed)
    r = random.Random(seed)
    while not GAME.is_over(s):
        legal = GAME.legal_actions(s)
        s, _ = GAME.apply(s, policy.choose(GAME.view(s, s.players[s.current]), legal, r))
    return s.round_no


@pytest.mark.parametrize("policy", [NOVICE, EXPERIENCED], ids=["novice", "experienced"])
def test_r17d_the_bots_own_play_keeps_games_to_a_sensible_length(
    policy: Policy[View, Action],
) -> None:
    """Issue 31: what the bot plays for an absent player (the novice) and for a seat
    handed to a computer (the experienced) ends games in about 15 rounds, and none runs
    past 30: before R17d a last token circling the inner ring alone took 40–70 rounds
    (docs/hypnosia-length.md has the numbers)."""
    rounds = [_rounds(n, seed, policy) for n in (2, 3, 4, 5, 6) for seed in range(4, 8)]
    assert max(rounds) <= 30, rounds
    assert sum(rounds) / len(rounds) <= 20, rounds


def test_r13_a_pair_waiting_on_a_bridge_it_cannot_cross_splits() -> None:
    """R13, R15: a pair on a bridge may not cross (the variant); without a 1 to take one
    token in, the novice moves one token of the pair on and leaves the other waiting there
    (alone it may cross), rather than walk the pair off the bridge."""
    s = roll(build(tokens={RED: {1: "3.6", 3: "3.6"}, BLUE: {1: "1.20"}}, rest="X"), 3, 5)
    a = GAME.timeout_action(s)
    assert not a.pair and a.token == 1 and a.route is Route.RING, a
    after, _ = GAME.apply(s, a)
    assert after.tokens[RED][2] == "3.6"
