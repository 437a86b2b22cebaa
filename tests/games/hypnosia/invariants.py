"""The spec's invariants I1–I7 (§7), checked after every action in random play."""

from __future__ import annotations

from collections import Counter

from games.hypnosia import GAME, Phase, State
from games.hypnosia.engine import centre_fields, has_tokens, score
from games.hypnosia.model import (
    CAPTURED,
    CENTRE_VALUES,
    REMOVED,
    START,
    centre_value,
    parse_cell,
)


def rank(pos: str) -> int:
    """How far inward a place is: start 0, rings 1–3, centre 4; gone (X, L) 5."""
    if pos == START:
        return 0
    cell = parse_cell(pos)
    if cell is not None:
        return cell[0]
    if centre_value(pos) is not None:
        return 4
    assert pos in (CAPTURED, REMOVED), pos
    return 5


def check(s: State, prev: State | None = None) -> None:
    n = len(s.players)
    # I1: every token in exactly one place; X counts as lost, L only for leavers
    for seat, row in enumerate(s.tokens):
        assert len(row) == 4
        assert sum(1 for p in row if p == CAPTURED) == s.lost[seat], "I1 captured = lost"
        if seat not in s.left:
            assert REMOVED not in row, "I1 L only after leaving"
        else:
            assert not any(p == START or parse_cell(p) for p in row), "I1 leaver off the board"
    # I2: a ring cell holds at most 2 tokens, of one player
    cells: dict[str, list[int]] = {}
    for seat, row in enumerate(s.tokens):
        for p in row:
            if parse_cell(p) is not None:
                cells.setdefault(p, []).append(seat)
    for cell, seats in cells.items():
        assert len(seats) <= 2 and len(set(seats)) == 1, f"I2 {cell}: {seats}"
    # I3: centre filled in order 5, 4, 3, 2, 1, one token each; full -> over
    assert len(s.centre) <= 5
    held = Counter(
        (seat, centre_value(p)) for seat, row in enumerate(s.tokens) for p in row if p[0] == "C"
    )
    expected = Counter((seat, CENTRE_VALUES[i]) for i, seat in enumerate(s.centre))
    assert held == expected, "I3 centre fields match the tokens"
    if len(s.centre) == 5:
        assert s.phase == Phase.GAME_OVER, "I3 full centre ends the game"
    # I4: a token never moves outward
    if prev is not None:
        for seat in range(n):
            for a, b in zip(prev.tokens[seat], s.tokens[seat], strict=True):
                assert rank(b) >= rank(a), f"I4 {a} -> {b}"
                if rank(a) in (4, 5):
                    assert a == b, "I4 centre and captured are final"
        assert s.version == prev.version + 1
    # I5: scores and the capture balance
    assert sum(s.captured) == sum(s.lost), "I5 captures balance"
    for seat in range(n):
        assert score(s, seat) == sum(centre_fields(s, seat)) + s.captured[seat] - s.lost[seat]
    # I6: the unused dice are a sub-multiset of the roll; the mover always has a move
    if s.phase == Phase.MOVE:
        assert s.unused and not Counter(s.unused) - Counter(s.dice), "I6"
        assert GAME.legal_actions(s), "I6 a die without use lapses"
    if s.phase == Phase.ROLL:
        assert not s.dice and not s.unused
        assert has_tokens(s, s.current), "R18 the mover has tokens in play"
        racers = [seat for seat in range(n) if has_tokens(s, seat)]
        assert len(racers) >= 2, "R17d a player racing alone has ended the game"
    if s.phase == Phase.GAME_OVER:
        assert GAME.to_act(s) is None and GAME.legal_actions(s) == []
        assert s.end_reason is not None and s.winners
    else:
        assert GAME.to_act(s) == s.players[s.current] and s.current not in s.left
        assert s.round_no <= s.options.round_limit
    # I-JSON: the state round-trips exactly
    assert State.model_validate_json(s.model_dump_json()) == s
