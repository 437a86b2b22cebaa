"""The stored record's format (`GameRecord.schema_version`) and the steps that upgrade it.

Every record is written with today's `SCHEMA` (the field's default). A record is read by
`load`: today's format loads directly; an older one (a record written before versions
has no field: schema 0) is taken as a JSON object through `STEPS`, one format at a time,
and then validated. Whatever fails on the way — a step, the validation, a record of a
*newer* bot — raises, and the store moves the value aside as it was (its quarantine,
bot/storage/quarantine.py): the chat's game is not lost, and the chat is told once.

Changing the format: a field added with a default needs nothing (older records load
with the default). A field renamed, removed or given another meaning (or an engine state
that changes shape) needs a step: first run `python -m tests.bot.fixtures.records.make`
(it keeps fixtures of the format being left, beside the older ones, which stay), then
bump the default of `schema_version` in bot/storage/base.py and add `STEPS[old] = step`
here (tests/bot/test_schema_fixtures.py reads every fixture, and wants one of every
older format for every game).

Instances are upgraded together: an older bot does not read a newer bot's record (it is
moved aside, not overwritten).

    >>> rec = load(b'{"chat_id": -1, "uid": "a1", "game_id": "sea_cross", "creator": 5}')
    >>> rec.schema_version == SCHEMA, rec.game_id
    (True, 'sea_cross')
    >>> load(b'{"chat_id": -1, "uid": "a1", "game_id": "g", "creator": 5, "schema_version": 99}')
    Traceback (most recent call last):
    ...
    bot.storage.schema.TooNew: written by a newer bot (record format 99; this bot reads up to 2)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from bot.storage.base import GameRecord
from games.seven_tracks import GAME as SEVEN_TRACKS
from games.seven_tracks import ActionType

Step = Callable[[dict[str, Any]], dict[str, Any]]

SCHEMA: int = GameRecord.model_fields["schema_version"].default
"""Today's record format (the field's default in bot/storage/base.py)."""


class TooNew(ValueError):
    """The record was written by a newer bot: this one can't know its format."""


def _from_unversioned(data: dict[str, Any]) -> dict[str, Any]:
    """0 → 1: the records written before formats had a number (2026-12) are format 1 as
    they are; only the stamp is new."""
    return data


def _window_as_decision(data: dict[str, Any]) -> dict[str, Any]:
    """1 → 2: «Семидорожник»'s first-move window is the engine's simultaneous decision,
    timed by the record's decision timer (`turn_id`, `window`, `turn_deadline`). The older
    bot kept it in the table's ui, `{"fm": {"round": [...], "deadline": t, "choices":
    {user: "D" | "P"}}}` (`choices`: the answers not yet applied, in records written
    before 2026-12): they are applied with their seats, "fm" goes, and a window still
    open keeps its deadline."""
    ui = data.get("ui")
    if data.get("game_id") != "seven_tracks" or not isinstance(ui, dict) or "fm" not in ui:
        return data
    window = ui.get("fm") or {}
    data["ui"] = {k: v for k, v in ui.items() if k != "fm"}
    if not data.get("state"):
        return data
    game = SEVEN_TRACKS
    s = game.state_type.model_validate_json(data["state"])
    choices = window.get("choices") or {}
    for user in game.deciders(s):
        choice = choices.get(str(user))
        wanted = ActionType.FM_DECLARE if choice == "D" else ActionType.FM_PASS
        answers = [a for a in game.legal_actions_for(s, user) if a.type == wanted]
        if choice in ("D", "P") and answers and game.is_simultaneous(s):
            s, _events = game.apply(s, answers[0])
    data["state"] = s.model_dump_json()
    deadline = window.get("deadline")
    if game.is_simultaneous(s) and isinstance(deadline, int | float):
        data["turn_id"] = game.turn_key(s)
        data["window"] = True
        data["turn_deadline"] = float(deadline)
    return data


STEPS: dict[int, Step] = {0: _from_unversioned, 1: _window_as_decision}
"""`STEPS[n]` turns a record of format n into one of format n + 1."""


def upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """A record's JSON object, brought to today's format (ValueError when it can't be).

    >>> upgrade({"uid": "a1"})["schema_version"] == SCHEMA
    True
    """
    version = data.get("schema_version", 0)
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise ValueError(f"the record format is not a number: {version!r}")
    if version > SCHEMA:
        raise TooNew(
            f"written by a newer bot (record format {version}; this bot reads up to {SCHEMA})"
        )
    while version < SCHEMA:
        step = STEPS.get(version)
        if step is None:
            raise ValueError(f"no upgrade from record format {version}")
        data = dict(step(dict(data)))
        version += 1
        data["schema_version"] = version
    return data


def load(raw: str | bytes) -> GameRecord:
    """The record stored in `raw`, in today's format (raises when it can't be read)."""
    stamped = b'"schema_version"' in raw if isinstance(raw, bytes) else '"schema_version"' in raw
    try:  # today's format: one pass
        rec = GameRecord.model_validate_json(raw)
        if rec.schema_version == SCHEMA and stamped:
            return rec
    except ValueError:
        pass  # an older format may not validate as it is: upgraded first
    data = json.loads(raw)
    if not isinstance(data, dict):
        raise ValueError(f"a record is a JSON object, not {type(data).__name__}")
    return GameRecord.model_validate(upgrade(data))
