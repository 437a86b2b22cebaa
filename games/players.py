"""Computer players: one policy per game and level, deciding from a seat's view alone.

A computer player sits at the table like a human, with a player id of its own that is
negative (`is_computer`), so the engines need no change: they see only ids. The bot asks
`decide` for its move; `decide` is handed the seat's `view` and its legal actions, never
the state, so a computer player can neither use nor leak another player's hidden tiles.

Levels (`LEVELS`), weakest first: «новичок» (`novice`, also the timed-out turn's policy),
«опытный» (`experienced`), «мастер» (`master`, a determinized Monte Carlo search,
`games.search.Master`: a counted work per decision, about 0.1–0.3 s of CPU, under the
guards `games.search.BUDGET` and `WALL`: run it off the event loop). See docs/players.md
for the levels, the search per game and their measured strength.

Example:
    >>> import games
    >>> g = games.get("hypnosia")
    >>> s = g.new([1, computer_id(0)], seed=1)
    >>> is_computer(computer_id(0)), is_computer(1)
    (True, False)
    >>> a = decide("hypnosia", "novice", g.view(s, g.to_act(s)), g.legal_actions(s), seed=5)
    >>> a in g.legal_actions(s)
    True
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from typing import Any

from games.policy import Policy, choose_for

LEVELS: tuple[str, ...] = ("novice", "experienced", "master")

#: the attribute of `games/<id>/policies.py` that holds each level's policy
_ATTRIBUTE = {"novice": "NOVICE", "experienced": "EXPERIENCED", "master": "MASTER"}


def computer_id(n: int) -> int:
    """The player id of the `n`-th computer seat of a table (0, 1, ...): -1, -2, ..."""
    return -1 - n


def is_computer(player: int) -> bool:
    """Whether `player` is a computer seat (its id is negative; Telegram ids are not)."""
    return player < 0


class _FirstLegal:
    """The fallback for a level a game does not have yet: its first legal action."""

    name = "first_legal"

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        return legal[0]


def _module(game_id: str, name: str) -> object | None:
    try:
        return importlib.import_module(f"games.{game_id}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"games.{game_id}.{name}":
            raise
        return None


def policy(game_id: str, level: str) -> Policy[Any, Any]:
    """The policy of `level` for `game_id`; a missing level falls back to a weaker one.

    The heuristics live in `games/<id>/policies.py` (NOVICE, EXPERIENCED), the search in
    `games/<id>/master.py` (MASTER) where the engine imports the policies itself."""
    if level not in _ATTRIBUTE:
        raise KeyError(level)
    modules = [m for m in (_module(game_id, "master"), _module(game_id, "policies")) if m]
    for name in LEVELS[: LEVELS.index(level) + 1][::-1]:
        for module in modules:
            found = getattr(module, _ATTRIBUTE[name], None)
            if found is not None:
                chosen: Policy[Any, Any] = found
                return chosen
    return _FirstLegal()


def decide(game_id: str, level: str, view: Any, legal: Sequence[Any], seed: int) -> Any:
    """The move of a computer player of `level`, from its `view` and `legal` actions; the
    same arguments give the same move (`seed` drives its randomness)."""
    return choose_for(policy(game_id, level), view, legal, random.Random(seed))


__all__ = ["LEVELS", "computer_id", "decide", "is_computer", "policy"]
