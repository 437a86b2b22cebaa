"""«Гипнозия» with an absent player (issue 18, spec §5 AFK decision revised 2026-12): his
every turn times out and the bot plays it (`timeout_move`, the novice policy), the others
play by the buttons. The game must still end normally — by the centre or by the tokens —
within a bounded number of rounds, far from the 200-round guard: the absent player's
tokens leave the start and cross bridges instead of standing in the way for ever (and a
player left racing alone runs home at once, R17d)."""

from __future__ import annotations

import pytest

from bot.presenters.hypnosia import make_presenter
from games.hypnosia import GAME, Phase, State
from games.hypnosia.model import START, EndReason
from locales import get_translator
from tests.bot.hypnosia_play import choose

P = make_presenter(None)
T = get_translator("ru")
ENDS = (EndReason.CENTRE_FULL, EndReason.NO_TOKENS, EndReason.LAST_RACER)  # R17a, b, d
ROUNDS = 100  # the bound: purposeful play ends in about 15–40 rounds


def play(players: list[int], absent: int, seed: int) -> tuple[State, bool]:
    """A game where `absent` only ever times out; the rest press what `choose` picks.
    Returns the end state and whether the absent player's tokens crossed a bridge."""
    s = P.new_state(players, seed, {})
    c = P.context(T, {})
    adv = P.advance(s, c)
    s, c = adv.state, c.but(ui=adv.ui or c.ui)
    crossed = False
    for _ in range(20_000):
        assert isinstance(s, State)
        if GAME.is_over(s):
            return s, crossed
        user = P.actor(s)
        if user == absent:
            out = P.timeout_move(s, absent)
            assert isinstance(out.state, State)
            seat = players.index(absent)
            crossed |= any(t.startswith(("2.", "3.", "C")) for t in out.state.tokens[seat])
        else:
            assert user is not None and s.phase == Phase.MOVE
            buttons = {b.text: b.code for row in P.keyboard(s, c) for b in row}
            out = P.press(s, user, P.parse(buttons[choose(list(buttons))]), c)
        c = c.but(ui=out.ui or c.ui)
        adv = P.advance(out.state, c)
        s, c = adv.state, c.but(ui=adv.ui or c.ui)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_game_with_one_absent_player_ends_normally_within_a_bounded_number_of_rounds(
    n: int,
) -> None:
    players = list(range(501, 501 + n))
    for seed in range(1, 7):
        for absent in (players[0], players[-1]):
            end, crossed = play(players, absent, seed)
            seat = players.index(absent)
            assert end.end_reason in ENDS, (n, seed, end.end_reason)
            assert end.round_no < ROUNDS, (n, seed, end.round_no)
            assert START not in end.tokens[seat], (n, seed, end.tokens[seat])  # off the start
            assert crossed, (n, seed, end.tokens[seat])  # and across a bridge
