"""The house rules' catalogue (bot/house_rules.py) against the engines: every value offered
is accepted by the game's own `Options`, the first one is the engine's default, every
rule has its label and explanation in both languages, and stored junk never reaches a
lobby."""

from __future__ import annotations

import pytest

from bot import house_rules
from bot.presenters import registry
from locales import LANGUAGES, get_translator

PRESENTERS = registry()


@pytest.mark.parametrize("game_id", list(PRESENTERS))
def test_every_value_offered_is_an_engine_option_and_the_first_is_its_default(
    game_id: str,
) -> None:
    p = PRESENTERS[game_id]
    model = house_rules.options_model(game_id)
    defaults = model()
    keys = house_rules.length_keys(p)
    for rule in house_rules.rules_of(p):
        assert rule.key in model.model_fields and rule.key not in keys, rule
        assert getattr(defaults, rule.key) == rule.values[0], rule
        for value in rule.values:
            assert house_rules.valid(p, {rule.key: value}), (rule, value)
    for choice in p.choices():
        assert house_rules.valid(p, choice.options), choice


@pytest.mark.parametrize("lang", LANGUAGES)  # ru and en share their keys (test_locales)
def test_every_rule_and_value_has_its_words(lang: str) -> None:
    t = get_translator(lang)
    for game_id, p in PRESENTERS.items():
        for rule in house_rules.rules_of(p):
            for key in (f"house.{game_id}.{rule.key}", f"house.{game_id}.{rule.key}.about"):
                assert t.has(key), key
            for value in rule.values:
                if isinstance(value, str):
                    assert t.has(f"house.{game_id}.{rule.key}.{value}"), value


def test_stored_junk_and_refused_combinations_never_reach_a_lobby() -> None:
    p = PRESENTERS["seven_tracks"]
    junk = {"hand_size": "many", "tile_set": {}, "target_score": 50, "nope": 1}
    assert house_rules.lobby_options(p, junk) == ("r1", {"single_round": True})
    assert not house_rules.valid(p, {"hand_size": 0})
    d = PRESENTERS["dominas"]
    code, options = house_rules.lobby_options(
        d, {"mode": "teams", "match_games": 1, "fill_direction": "counterclockwise"}
    )
    assert code == "t1"
    assert options == {"match_games": 1, "mode": "teams", "fill_direction": "counterclockwise"}


def test_cycling_a_rule_comes_back_to_the_default_and_stores_nothing_then() -> None:
    p = PRESENTERS["seven_tracks"]
    rule = next(r for r in house_rules.rules_of(p) if r.key == "hand_size")
    options: dict[str, object] = {"single_round": True}
    seen = []
    for _ in rule.values:
        options = house_rules.cycled(p, options, rule)
        seen.append(options.get("hand_size"))
    assert seen == [10, 14, None] and options == {"single_round": True}
