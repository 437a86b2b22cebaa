"""Move-choosing policies of «Морской крест», reading only a player's view (games.policy).

* `NOVICE` («новичок») rolls, enters on a 6 and otherwise moves its most advanced token
  that can move — plain play that always makes progress. (A timed-out turn keeps the
  engine's canonical first action, `SeaCross.timeout_turn`.)
* `EXPERIENCED` («опытный») plays the runner's order too (enter, then the most advanced
  token: few tokens at risk, the home tidied from the deepest cell), but captures first
  (the further the victim had come, the better), brings tokens home, and weighs the risk
  of standing where an opponent's die can land (and of the red corner 34, whose jump
  throws a token back a lap) against the risk where the token stands now; and it moves
  a token off its own кон while tokens wait in the reserve (the кон must be free for the
  next 6 to enter one, R9).
* `MASTER` («мастер») is a Monte Carlo search (games.search) over the same legal actions:
  the board is public, so each sample is the real position with fresh dice; rollouts of
  a few turns are played by `EXPERIENCED` and scored by the race (`evaluate`).

Example:
    >>> import random
    >>> from games.sea_cross import GAME
    >>> s = GAME.new([1, 2], seed=3)
    >>> EXPERIENCED.choose(GAME.view(s, GAME.to_act(s)), GAME.legal_actions(s),
    ...                    random.Random(0)).encode()
    'R'
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.sea_cross.determinize import sample
from games.sea_cross.engine import GAME, _perform
from games.sea_cross.model import (
    BASE,
    HOME,
    LOOP_LEN,
    Action,
    ActionInfo,
    ActionType,
    State,
    View,
    global_index,
    start_index,
)
from games.search import Master, place_value


def _info(view: View, a: Action) -> ActionInfo | None:
    code = a.encode()
    return next((i for i in view.actions if i.code == code), None)


class Novice:
    """«Новичок»: roll; enter on a 6; else move the most advanced token that can move."""

    name = "novice"

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        def key(i: int) -> tuple[int, int, int]:
            a = legal[i]
            info = _info(view, a)
            if a.type is not ActionType.MOVE or info is None:
                return (1, 0, -i)
            return (0, info.from_rel or 0, -i)

        return legal[max(range(len(legal)), key=key)]


def _threats(view: View, seat: int) -> dict[int, int]:
    """Loop cell -> how many opponent tokens could land there with one die (1…6)."""
    out: dict[int, int] = {}
    for p in view.players:
        if p.seat == seat or not p.active:
            continue
        for t in p.tokens:
            if t.rel == BASE:
                continue
            if t.rel >= HOME:
                continue
            g = global_index(p.arm, t.rel)
            for d in range(1, 7):
                if t.rel + d <= LOOP_LEN - 1:
                    cell = (g + d) % LOOP_LEN
                    out[cell] = out.get(cell, 0) + 1
        if p.reserve_count:
            cell = start_index(p.arm)
            out[cell] = out.get(cell, 0) + 1
    return out


def _victim_rel(view: View, seat: int, g: int) -> int:
    for p in view.players:
        if p.seat == seat:
            continue
        for t in p.tokens:
            if 0 <= t.rel < LOOP_LEN and global_index(p.arm, t.rel) == g:
                return t.rel
    return 0


def _token_value(rel: int) -> float:
    if rel == BASE:
        return 0.0
    return 10.0 + rel + (12.0 if rel >= HOME else 0.0)


def _risk(threats: dict[int, int], g: int, rel: int) -> float:
    """The expected loss of a token at loop cell `g` (progress `rel`) before it moves."""
    return min(0.9, 0.3 * threats.get(g, 0)) * (10 + rel)


#: how much «опытный» weighs the risk of a token standing within an opponent's die
RISK = 0.6
#: how much «опытный» values moving a token off its own кон while tokens wait in the
#: reserve (an own token there forbids entering, R9): more than any plain move
#: (0 … 39), less than entering or a capture by an advanced token. Measured 2026-12-03
#: on 3,000 games against «новичок» (docs/players.md).
CLEAR_KON = 50.0


def _score(
    view: View, seat: int, a: Action, threats: dict[int, int], clear_kon: float = CLEAR_KON
) -> float:
    """The runner's order (enter, then the most advanced token, like «новичок»), with a
    capture first, the risk of standing within an opponent's die weighed in, and the
    own кон cleared while tokens wait in the reserve."""
    info = _info(view, a)
    if info is None or info.to_rel is None:
        return 0.0
    me = view.players[seat]
    frm = info.from_rel if info.from_rel is not None else BASE
    to = info.to_rel
    score = 100.0 if a.type is not ActionType.MOVE else float(frm)
    if info.captures:
        score += 60 + 0.5 * _victim_rel(view, seat, global_index(me.arm, to))
    if info.home and frm < HOME:
        score += 30
    if to < LOOP_LEN:
        score -= RISK * _risk(threats, global_index(me.arm, to), to)
        if to == 34:
            score -= 10  # a 1 would throw it back a lap (R17)
    if 0 <= frm < LOOP_LEN:
        score += RISK * _risk(threats, global_index(me.arm, frm), frm)  # out of danger
    if frm == 0 and me.reserve_count and a.type is ActionType.MOVE:
        score += clear_kon  # the кон is free again for the next 6 (R9)
    return score


class Experienced:
    """«Опытный»: home, capture, enter, corners, safety and blocks (module doc)."""

    name = "experienced"

    def __init__(self, clear_kon: float = CLEAR_KON) -> None:
        self.clear_kon = clear_kon

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        seat = view.to_act_seat
        if seat is None or len(legal) == 1:
            return legal[0]
        threats = _threats(view, seat)
        scores = [_score(view, seat, a, threats, self.clear_kon) for a in legal]
        return legal[max(range(len(legal)), key=lambda i: (scores[i], -i))]


def evaluate(state: State, seat: int) -> float:
    """The race from `seat`'s side in [0, 1]: his tokens' progress against the best other."""
    if GAME.is_over(state):
        return place_value(GAME, state, seat)
    values = [
        sum(_token_value(r) for r in toks) if state.active[x] else -1.0
        for x, toks in enumerate(state.tokens)
    ]
    mine = values[seat]
    best = max(v for x, v in enumerate(values) if x != seat)
    return min(1.0, max(0.0, 0.5 + (mine - best) / 300.0))


NOVICE = Novice()
EXPERIENCED = Experienced()
MASTER = Master(
    game=GAME,
    sample=sample,
    evaluate=evaluate,
    rollout=EXPERIENCED,
    fallback=EXPERIENCED,
    horizon=10,
    # 60 samples of the dice (was 24: docs/players.md, 2026-12-03 evening), and 180
    # rollouts in all at most (issue 30: a fixed work, calibrated so that the guard does
    # not fire; a rollout costs about 1 ms here)
    iterations=60,
    rollouts=180,
    margin=0.01,
    perform=_perform,  # the rollout's steps on the candidate's own copy
)

__all__ = ["EXPERIENCED", "MASTER", "NOVICE", "Experienced", "Novice", "evaluate"]
