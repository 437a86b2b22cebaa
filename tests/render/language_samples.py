"""The seeded views of tests/render/test_picture_language.py and how they are stored.

`language_samples.jsonl` holds, one line each, a view of every game half-way or at the end
of a seeded random game (the view itself, so a change of an engine's play does not
change the case) and the hash of its Russian picture's decoded pixels, as the renderers
drew it before their words moved to locales/ (issue 12). Regenerate only on purpose,
when a Russian picture is meant to change:

    python -m tests.render.language_samples   # rewrites language_samples.jsonl
"""

from __future__ import annotations

import hashlib
import importlib
import io
import json
import random
from pathlib import Path
from typing import Any

from PIL import Image

import games

FILE = Path(__file__).with_name("language_samples.jsonl")

# Names with Cyrillic, Latin, an emoji, a long one and a missing seat («Игрок 4»).
NAMES_RU: dict[int, str] = {
    1: "Аня",
    2: "Борис",
    3: "Вика 🎲",
    5: "Александра Константиновна",
    6: "Зоя",
}
NAMES_EN: dict[int, str] = {1: "Anna", 2: "Boris", 3: "Vicky", 5: "Alexandra Constantine"}

# (game, players, options, seed, how far into the game); seed 3 has seat 2 leave at
# its 60th step when more than two play.
CASES: list[tuple[str, int, dict[str, Any] | None, int, float]] = [
    ("cell_capture", 3, None, 1, 0.1),
    ("cell_capture", 4, None, 3, 0.7),
    ("cell_capture", 6, None, 2, 1.0),
    ("dominas", 3, None, 3, 0.7),
    ("dominas", 4, {"mode": "teams"}, 1, 0.5),
    ("dominas", 8, None, 2, 0.3),
    ("hypnosia", 4, None, 1, 1.0),
    ("hypnosia", 4, None, 3, 0.5),
    ("hypnosia", 6, None, 2, 0.7),
    ("sea_cross", 3, None, 2, 0.7),
    ("sea_cross", 4, None, 1, 1.0),
    ("sea_cross", 4, None, 3, 0.5),
    ("seven_tracks", 2, None, 1, 0.0),
    ("seven_tracks", 3, None, 1, 0.02),
    ("seven_tracks", 4, None, 1, 0.3),
    ("seven_tracks", 4, None, 3, 1.0),
]


def seeded_view(
    game_id: str, players: int, options: dict[str, Any] | None, seed: int, fraction: float
) -> Any:
    """The public view `fraction` of the way through a seeded random game."""
    game = games.get(game_id)
    rng = random.Random(seed)
    s = game.new(list(range(1, players + 1)), seed=seed, options=options)
    history = [s]
    while not game.is_over(s) and len(history) < 4000:
        if seed == 3 and players > 2 and len(history) == 60:
            s, _ = game.remove(s, 2)
        else:
            s, _ = game.apply(s, rng.choice(game.legal_actions(s)))
        history.append(s)
    return game.view(history[int(fraction * (len(history) - 1))], None)


def pixel_hash(png: bytes) -> str:
    """The hash of a PNG's decoded RGB pixels and its size (the compressor does not count)."""
    im = Image.open(io.BytesIO(png)).convert("RGB")
    return f"{hashlib.sha1(im.tobytes()).hexdigest()}-{im.width}x{im.height}"


def load() -> list[tuple[str, Any, str]]:
    """(game id, view, hash of the Russian pixels) of every stored case."""
    out: list[tuple[str, Any, str]] = []
    for line in FILE.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        model: Any = importlib.import_module(f"games.{case['game']}.model")
        out.append((case["game"], model.View.model_validate(case["view"]), case["ru_pixels"]))
    return out


def write() -> None:
    lines = []
    for game_id, players, options, seed, fraction in CASES:
        view = seeded_view(game_id, players, options, seed, fraction)
        module: Any = importlib.import_module(f"render.{game_id}")
        case = {
            "game": game_id,
            "case": [players, options, seed, fraction],
            "ru_pixels": pixel_hash(module.render(view, NAMES_RU)),
            "view": json.loads(view.model_dump_json()),
        }
        lines.append(json.dumps(case, ensure_ascii=False, separators=(",", ":")))
    FILE.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write()
