"""Issue 18: a tile keeps its number while it is in a hand (`slot_numbers`), so a button
never changes meaning when another tile leaves; which numbers are left says nothing about
the hand."""

from __future__ import annotations

import random

from games.dominas import GAME, ActionType, State
from games.dominas.engine import slot_numbers
from games.dominas.tiles import sort_key


def play(n: int, seed: int, options: dict[str, object] | None = None) -> list[State]:
    rng = random.Random(seed)
    s = GAME.new(list(range(1, n + 1)), seed=seed, options=options)
    out = [s]
    for _ in range(400):
        if GAME.is_over(s):
            break
        acts = GAME.legal_actions(s)
        s, _ = GAME.timeout(s) if rng.random() < 0.05 else GAME.apply(s, rng.choice(acts))
        out.append(s)
    return out


def test_numbers_stay_with_their_tiles_and_are_never_reused_in_a_game() -> None:
    teams: dict[str, object] = {"mode": "teams"}
    for n, seed, options in ((2, 1, None), (3, 2, None), (4, 3, teams)):
        states = play(n, seed, options)
        assert any(s.game_no == 2 for s in states), "the match reaches game 2"
        seen: dict[tuple[int, int], dict[str, int]] = {}  # (game, seat) -> tile -> number
        for s in states:
            for seat in range(n):
                numbers = slot_numbers(s, seat)
                assert len(numbers) == len(s.hands[seat]) == len(set(numbers))
                known = seen.setdefault((s.game_no, seat), {})
                for tile, k in zip(s.hands[seat], numbers, strict=True):
                    if tile in known:
                        assert known[tile] == k, "a tile keeps its number"
                    else:  # a tile new in the hand gets a number nobody had this game
                        assert k not in known.values(), "a number is not reused"
                        known[tile] = k
                assert GAME.view(s, None).players[seat].slots == sorted(numbers)
                me = GAME.view(s, s.players[seat])
                assert me.hand_slots == numbers


def test_dealt_numbers_say_nothing_about_the_sorted_hand() -> None:
    """The dealt tiles are numbered 1…10 at random, not in the hand's sorted order (else
    a gap left by a placed tile would tell how many tiles sort before it)."""
    firsts = set()
    for seed in range(40):
        s = GAME.new([1, 2], seed=seed)
        for seat in range(2):
            assert sorted(slot_numbers(s, seat)) == list(range(1, 11))
            hand = sorted(s.hands[seat], key=sort_key)
            number = dict(zip(s.hands[seat], slot_numbers(s, seat), strict=True))
            firsts.add(number[hand[0]])
    assert len(firsts) >= 6


def test_numbering_leaves_the_dice_alone() -> None:
    """Numbering uses a generator of its own: the deal, the bazaar and the first player
    of a seed are what they were."""
    s = GAME.new([1, 2, 3], seed=11)
    assert s.rng_calls == 3  # hands, bazaar, first player
    assert all(a.type is not ActionType.TIMEOUT for a in GAME.legal_actions(s))


def test_a_state_stored_before_numbers_existed_numbers_the_hand_in_order() -> None:
    s = GAME.new([1, 2], seed=5)
    old = s.model_copy(update={"entered": []})
    assert slot_numbers(old, 0) == list(range(1, 11))
    raw = old.model_dump()
    del raw["entered"]
    assert slot_numbers(State.model_validate(raw), 1) == list(range(1, 11))
