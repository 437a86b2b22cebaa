"""Move-choosing policies: what the bot decides on a player's behalf, read from his view only.

A policy is given what the player himself may see, `game.view(state, seat)`, and the
actions legal for him now, and returns one of them; it never sees the state, so it can
neither use nor leak another player's hidden tiles (DESIGN, «Computer players and
automation»). Each game keeps its policies in `games/<id>/policies.py`; the weakest,
«новичок» (novice), is also what a timed-out turn plays and must always make progress.

Example:
    >>> import random
    >>> class First:
    ...     name = "first"
    ...     def choose(self, view, legal, rng):
    ...         return legal[0]
    >>> choose_for(First(), view=None, legal=["a", "b"], rng=random.Random(0))
    'a'
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import Protocol, TypeVar

from pydantic import BaseModel

V_contra = TypeVar("V_contra", contravariant=True)
A = TypeVar("A")


class Policy(Protocol[V_contra, A]):
    """Chooses one of `legal` (never empty) for the player whose `view` it is given."""

    name: str

    def choose(self, view: V_contra, legal: Sequence[A], rng: random.Random) -> A: ...


def choose_for(
    policy: Policy[V_contra, A], view: V_contra, legal: Sequence[A], rng: random.Random
) -> A:
    """`policy.choose`, checked: the choice must be one of `legal`."""
    if not legal:
        raise ValueError("no legal action to choose from")
    action = policy.choose(view, legal, rng)
    if action not in legal:
        raise ValueError(f"policy {policy.name!r} chose an action that is not legal")
    return action


def view_rng(view: BaseModel, purpose: str) -> random.Random:
    """A generator for one decision taken for a player, derived from his view alone: the
    same view gives the same generator (replays repeat the decision), and nothing the
    player cannot see — other hands, the bank's order, the game's seed — can change it.
    It does not advance the game's own dice."""
    digest = hashlib.sha256(f"{purpose}:{view.model_dump_json()}".encode()).hexdigest()
    return random.Random(digest[:32])
