"""House rules: the spec options a player may change, per game, with their values, labels
and one-line explanations (`/settings` for a chat's defaults, the lobby's «Правила
партии» for one game). The options tables are in the specs (docs: the rules' §Options).

The options a lobby's length row already sets (`Presenter[Any, Any].choices()`: a game's length, the
teams of ДОМИНА*С, Гипнозия's pairs over bridges) are not a second switch here: the house
rule for them is the default length choice (`LENGTH`). Every other option of the list is a
`Rule`: its values, the engine's default first, cycled by one button.

A set of options is always checked by the engine's own `Options` (pydantic, extra keys
refused) before it is stored, so a stored combination never fails the start. Each game's
rules are its presenter's `house_rules`.

    >>> from bot.presenters import registry
    >>> ps = registry()
    >>> lobby_options(ps["seven_tracks"], {"target_score": 72, "hand_size": 10, "junk": 1})
    ('s72', {'target_score': 72, 'hand_size': 10})
    >>> lobby_options(ps["hypnosia"], {})
    ('std', {})
    >>> min_players(ps["cell_capture"], {"allow_two_players": True})
    2
"""

from __future__ import annotations

import importlib
from typing import Any

from pydantic import BaseModel, ValidationError

from bot.presenters.base import LengthChoice, Presenter, Rule
from locales import Translator

LENGTH = "len"  # the code of the default length choice among a game's rules


def rules_of(p: Presenter[Any, Any]) -> tuple[Rule, ...]:
    """The game's house rules (its presenter's `house_rules`)."""
    return p.house_rules


def length_keys(p: Presenter[Any, Any]) -> set[str]:
    """The options the lobby's length row sets."""
    return {k for c in p.choices() for k in c.options}


def length_of(p: Presenter[Any, Any], options: dict[str, Any]) -> LengthChoice | None:
    """The length choice `options` hold (the first one when none matches); None: the
    game has no length row."""
    choices = p.choices()
    if not choices:
        return None
    keys = length_keys(p)
    mine = {k: v for k, v in options.items() if k in keys}
    return next((c for c in choices if c.options == mine), choices[0])


def own_rules(p: Presenter[Any, Any], options: dict[str, Any]) -> dict[str, Any]:
    """The `Rule` options of `options` that differ from the defaults (others dropped)."""
    out: dict[str, Any] = {}
    for rule in rules_of(p):
        value = options.get(rule.key, rule.values[0])
        if value in rule.values[1:]:
            out[rule.key] = value
    return out


def options_model(game_id: str) -> type[BaseModel]:
    model: type[BaseModel] = importlib.import_module(f"games.{game_id}.model").Options
    return model


def valid(p: Presenter[Any, Any], options: dict[str, Any]) -> bool:
    """The engine accepts `options` (its `Options` validates them)."""
    try:
        options_model(p.game_id).model_validate(options)
    except (ValidationError, ValueError, TypeError):
        return False
    return True


def lobby_options(p: Presenter[Any, Any], rules: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A new lobby's length choice and options from house rules `rules` (a chat's): the
    length they name, and the other rules on top; what the engine refuses is dropped."""
    choice = length_of(p, rules)
    base = dict(choice.options) if choice is not None else {}
    options = {**base, **own_rules(p, rules)}
    if not valid(p, options):
        options = base
    return (choice.code if choice is not None else ""), options


def with_length(
    p: Presenter[Any, Any], options: dict[str, Any], choice: LengthChoice
) -> dict[str, Any]:
    """`options` with the length `choice` instead of their own (the other rules kept)."""
    return {**choice.options, **own_rules(p, options)}


def cycled(p: Presenter[Any, Any], options: dict[str, Any], rule: Rule) -> dict[str, Any]:
    """`options` with `rule` at its next value (a default value is not stored)."""
    now = options.get(rule.key, rule.values[0])
    i = rule.values.index(now) if now in rule.values else 0
    value = rule.values[(i + 1) % len(rule.values)]
    out = {k: v for k, v in options.items() if k != rule.key}
    if value != rule.values[0]:
        out[rule.key] = value
    return out


def min_players(p: Presenter[Any, Any], options: dict[str, Any]) -> int:
    """The fewest players this game may start with, under its options (Захват клеток: 2
    with `allow_two_players`)."""
    return p.fewest_players(options)


# ------------------------------------------------------------------ their text


def rule_label(game_id: str, rule: Rule, t: Translator) -> str:
    return t(f"house.{game_id}.{rule.key}")


def value_label(game_id: str, rule: Rule, value: Any, t: Translator) -> str:
    if isinstance(value, bool):
        return t("house.yes" if value else "house.no")
    if isinstance(value, str):
        return t(f"house.{game_id}.{rule.key}.{value}")
    return str(value)


def explanation(game_id: str, rule: Rule, t: Translator) -> str:
    return t(f"house.{game_id}.{rule.key}.about")


def button_label(p: Presenter[Any, Any], rule: Rule, options: dict[str, Any], t: Translator) -> str:
    """«Фишек на руке: 12»: the rule's button, with its value now."""
    value = options.get(rule.key, rule.values[0])
    return t(
        "house.button",
        label=rule_label(p.game_id, rule, t),
        value=value_label(p.game_id, rule, value, t),
    )


def summary(p: Presenter[Any, Any], options: dict[str, Any], t: Translator) -> str:
    """What differs from the defaults, in one line («фишек на руке — 10, …»); "" if
    nothing."""
    own = own_rules(p, options)
    parts = [
        f"{rule_label(p.game_id, r, t).lower()} — {value_label(p.game_id, r, own[r.key], t)}"
        for r in rules_of(p)
        if r.key in own
    ]
    return ", ".join(parts)


def explained(p: Presenter[Any, Any], options: dict[str, Any], t: Translator) -> list[str]:
    """A line per rule: its value now and what it means (the rules' pages)."""
    lines = []
    for rule in rules_of(p):
        value = options.get(rule.key, rule.values[0])
        lines.append(
            t(
                "house.line",
                label=rule_label(p.game_id, rule, t),
                value=value_label(p.game_id, rule, value, t),
                about=explanation(p.game_id, rule, t),
            )
        )
    return lines
