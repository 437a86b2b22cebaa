"""The five games' names as players see them, in each language: the titles the locales must
give (tests/bot/test_game_names.py) and the command menus name."""

from __future__ import annotations

CANONICAL = {
    "ru": {
        "seven_tracks": "Семидорожник",
        "cell_capture": "Захват клеток",
        "sea_cross": "Морской крест",
        "hypnosia": "Гипнозия",
        "dominas": "ДОМИНА*С",
    },
    "en": {
        "seven_tracks": "Seven Tracks",
        "cell_capture": "Cell Capture",
        "sea_cross": "Sea Cross",
        "hypnosia": "Hypnosia",
        "dominas": "DOMINA*S",
    },
}
