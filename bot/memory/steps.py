"""Every engine step of a game, captured in order, so a finished game replays exactly.

The presenters (and a few service paths) call the engine themselves: `apply`, `timeout`,
`timeout_turn` (a whole timed-out decision), `remove`, and for «place everything» a
`batch` of actions on one copy of the state. Some
of those calls only look ahead (a preview, a probe of a legal move) and their states are
thrown away. So each presenter's engine is wrapped (`install`) by `RecordingGame`, which
links every state it returns to the state it came from and the step that made it; when
the service takes a new state into the record (`Moves.absorb` calls `capture`), the
links are followed back from that state to the record's previous one: exactly the steps
that led there, in order, whatever was looked at on the way. A link lives as long as its
state (a weak reference), so the look-aheads leave nothing behind.

The game's steps start with the engine's `new` call ("~n" + JSON) and then hold one
text per step (`games/replay.py`); the record holds those not stored yet (`rec.steps`),
the store keeps the others in a list of their own (`Store.steps` reads them all). If the
chain from the previous state can't be found (a state changed outside the wrapped
engine), `steps` becomes None: that game is kept without a replay rather than with a
wrong one (logged).
"""

from __future__ import annotations

import json
import logging
import threading
import weakref
from typing import Any

from pydantic import BaseModel

from bot.storage import GameRecord
from games.replay import TIMEOUT, TIMEOUT_TURN, remove_step

log = logging.getLogger(__name__)

NEW = "~n"


class _Start:
    """The step that made a game's first state: the engine's `new` call."""

    __slots__ = ("text",)

    def __init__(self, players: list[int], seed: int, options: dict[str, Any] | None) -> None:
        self.text = NEW + json.dumps(
            {"players": list(players), "seed": seed, "options": options or None},
            ensure_ascii=False,
            separators=(",", ":"),
        )


Entry = str | list[str] | _Start


class _Link:
    __slots__ = ("entry", "prev", "ref")

    def __init__(self, prev: object | None, entry: Entry, ref: weakref.ref[Any]) -> None:
        self.prev = prev
        self.entry = entry
        self.ref = ref


class Links:
    """State -> (the state it came from, the step): keyed by the state's identity, kept
    while the state lives."""

    def __init__(self) -> None:
        self._links: dict[int, _Link] = {}
        self._lock = threading.RLock()  # a link dropped may drop others (callbacks)

    def __len__(self) -> int:
        return len(self._links)

    def add(self, prev: object | None, out: object, entry: Entry) -> None:
        if out is prev:
            return  # nothing changed (e.g. removing a player who has already left)
        key = id(out)

        def gone(ref: weakref.ref[Any], key: int = key) -> None:
            with self._lock:
                link = self._links.get(key)
                if link is not None and link.ref is ref:
                    del self._links[key]

        with self._lock:
            self._links[key] = _Link(prev, entry, weakref.ref(out, gone))

    def chain(self, final: object) -> tuple[list[Entry], object]:
        """The steps that led to `final` (oldest first) and the state they started from;
        the links walked are dropped (the next capture starts from `final`)."""
        entries: list[Entry] = []
        cur = final
        with self._lock:
            while True:
                link = self._links.get(id(cur))
                if link is None or link.ref() is not cur:
                    break
                del self._links[id(cur)]
                entries.append(link.entry)
                if link.prev is None:
                    break
                cur = link.prev
        entries.reverse()
        return entries, cur


LINKS = Links()


class RecordingBatch:
    """An engine batch whose applied actions are noted (its state is one object that
    changes in place, so its link's step list grows with it)."""

    def __init__(self, game: Any, batch: Any, start: object) -> None:
        self._game = game
        self._batch = batch
        self._done: list[str] = []
        LINKS.add(start, batch.state, self._done)

    def first(self, options: Any) -> Any:
        a = self._batch.first(options)
        if a is not None:
            self._done.append(self._game.encode_action(a))
        return a

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("_game", "_batch", "_done"):
            raise AttributeError(name)
        return getattr(self._batch, name)


class RecordingGame:
    """An engine that links every state it returns (see the module's docstring); every
    other attribute is the engine's own."""

    def __init__(self, game: Any) -> None:
        self._game = game

    @property
    def wrapped(self) -> Any:
        return self._game

    def new(self, players: list[int], seed: int, options: dict[str, Any] | None = None) -> Any:
        state = self._game.new(players=players, seed=seed, options=options)
        LINKS.add(None, state, _Start(players, seed, options))
        return state

    def apply(self, state: Any, action: Any) -> tuple[Any, Any]:
        out, events = self._game.apply(state, action)
        LINKS.add(state, out, self._game.encode_action(action))
        return out, events

    def timeout(self, state: Any) -> tuple[Any, Any]:
        out, events = self._game.timeout(state)
        LINKS.add(state, out, TIMEOUT)
        return out, events

    def timeout_turn(self, state: Any) -> tuple[Any, Any]:
        out, events = self._game.timeout_turn(state)
        LINKS.add(state, out, TIMEOUT_TURN)
        return out, events

    def remove(self, state: Any, player: int) -> tuple[Any, Any]:
        out, events = self._game.remove(state, player)
        LINKS.add(state, out, remove_step(player))
        return out, events

    def batch(self, state: Any) -> RecordingBatch:
        return RecordingBatch(self._game, self._game.batch(state), state)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "_game":
            raise AttributeError(name)  # (unpickling, copying: before `_game` is set)
        return getattr(self._game, name)


def install(presenters: dict[str, Any]) -> None:
    """Wrap each presenter's engine once (the registry's engines stay as they are)."""
    for p in presenters.values():
        if not isinstance(p.game, RecordingGame):
            p.game = RecordingGame(p.game)


def capture(rec: GameRecord, state: BaseModel) -> None:
    """Add to `rec.steps` the steps from its stored state (or the game's start) to
    `state`, the one about to be stored."""
    if rec.steps is None:
        return
    entries, start = LINKS.chain(state)
    texts: list[str] = []
    begins = False
    for entry in entries:
        if isinstance(entry, _Start):
            texts, begins = [entry.text], True  # a new game: its start, then its steps
        elif isinstance(entry, list):
            texts.extend(entry)
        else:
            texts.append(entry)
    if begins:
        rec.steps, rec.steps_stored = texts, 0
        return
    if start is state and rec.state is not None and not texts:
        return  # the same state again
    if not (rec.steps or rec.steps_stored) or not isinstance(start, BaseModel):
        log.info("chat %s: game %s is kept without its replay", rec.chat_id, rec.uid)
        rec.steps, rec.steps_stored = None, 0
        return
    if start.model_dump_json() != rec.state:
        log.warning("chat %s: a step of game %s was not captured: no replay", rec.chat_id, rec.uid)
        rec.steps, rec.steps_stored = None, 0
        return
    rec.steps.extend(texts)


def start_of(steps: list[str]) -> dict[str, Any]:
    """The engine's `new` arguments of recorded `steps` (players, seed, options)."""
    if not steps or not steps[0].startswith(NEW):
        raise ValueError("no start")
    start: dict[str, Any] = json.loads(steps[0][len(NEW) :])
    return start
