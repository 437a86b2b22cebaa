"""A bound, not a player: how often a hero that sees the hidden state could win.

    python -m bench.clairvoyant GAME GAMES HORIZON [--start N]

Four seats, one hero against three «новичок», seats rotating and seeded as in
`bench.players` (`master_vs_3_novices`). The hero reads the real state — the other hands
and the bazaar's order in «ДОМИНА*С», the dice to come in «Морской крест» (fixed by the
seed) — and knows that the others play «новичок»: for each legal action it plays the game
on for HORIZON actions (itself «опытный», the others «новичок») and takes the action
whose outcome is best (a win, then the game's evaluation). It cheats by design; it says
how much the hidden information is worth (docs/players.md, follow-up of 2026-12-03).
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
from collections.abc import Callable, Sequence
from typing import Any

import games
from games.players import computer_id

SIZE = 4


def _tools(game_id: str) -> tuple[Any, Any, Callable[..., None], Callable[[Any], Any], Any]:
    pol = importlib.import_module(f"games.{game_id}.policies")
    perform = importlib.import_module(f"games.{game_id}.engine")._perform
    if game_id == "dominas":
        from games.dominas.master import _clone, evaluate

        return pol.NOVICE, pol.EXPERIENCED, perform, _clone, evaluate
    if game_id == "sea_cross":
        return pol.NOVICE, pol.EXPERIENCED, perform, lambda s: s.model_copy(deep=True), pol.evaluate
    raise SystemExit("games: dominas, sea_cross")


def play(game_id: str, g: int, horizon: int) -> float:
    """Game number `g` (seed and hero seat as in bench.players): the hero's win share."""
    game = games.get(game_id)
    novice, experienced, perform, clone, evaluate = _tools(game_id)
    hero = g % SIZE
    players = [computer_id(i) for i in range(SIZE)]
    state = game.new(players, seed=1_000_003 * (g + 1) + SIZE)
    rng = random.Random(f"bench:{g}")

    def outcome(s: Any) -> float:
        roll = random.Random(0)
        for _ in range(horizon):
            p = game.to_act(s)
            if p is None:
                break
            legal = game.legal_actions(s)
            pol = experienced if s.current == hero else novice
            a = legal[0] if len(legal) == 1 else pol.choose(game.view(s, p), legal, roll)
            perform(s, a, [])
        if game.to_act(s) is None:
            standings = game.result(s).standings
            place = {x.player: x.place for x in standings}[players[hero]]
            firsts = sum(1 for x in standings if x.place == 1)
            return (1 / firsts if place == 1 else 0.0) + 0.001 * (SIZE - place)
        return 0.5 * float(evaluate(s, hero))  # unfinished: below a sure win

    while (p := game.to_act(state)) is not None:
        legal: Sequence[Any] = game.legal_actions(state)
        view = game.view(state, p)
        if len(legal) == 1:
            a = legal[0]
        elif state.current != hero:
            a = novice.choose(view, legal, rng)
        else:
            a = experienced.choose(view, legal, rng)
            best = -1.0
            for c in [a, *(x for x in legal if x != a)]:
                s2 = clone(state)
                perform(s2, c, [])
                v = outcome(s2)
                if v > best + 1e-9:
                    a, best = c, v
        state, _ = game.apply(state, a)
    standings = game.result(state).standings
    firsts = [x.player for x in standings if x.place == 1]
    return 1 / len(firsts) if players[hero] in firsts else 0.0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.clairvoyant", description=__doc__)
    parser.add_argument("game")
    parser.add_argument("games", type=int)
    parser.add_argument("horizon", type=int)
    parser.add_argument("--start", type=int, default=0)
    args = parser.parse_args(argv)
    won = sum(play(args.game, g, args.horizon) for g in range(args.start, args.start + args.games))
    p = won / args.games
    ci = 1.96 * (p * (1 - p) / args.games) ** 0.5
    print(
        json.dumps(
            {
                "game": args.game,
                "games": args.games,
                "horizon": args.horizon,
                "win_share": round(p, 4),
                "ci95": round(ci, 4),
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
