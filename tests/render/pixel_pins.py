"""The pictures the render layer must keep pixel for pixel, and how they are stored.

`pixel_pins.jsonl` holds, one line each, a view of every game at the start of each phase
of a seeded random game, a third and two thirds through it and at its end (the view
itself, so a change of an engine's play does not change the case), with the hash of the
decoded pixels of its Russian and its English picture, and of the same picture drawn
whole in RGB before it is mapped onto the palette (`draw_rgb`, the reference path, for
«Семидорожник» beside the picture assembled on the palette: `render`, the fast path). It
pins the sample states of `tests/render/seven_tracks_samples.py`, the players' hands and
a replay's standings frame too. Regenerate only on purpose, when a picture is meant to
change:

    python -m tests.render.pixel_pins   # rewrites pixel_pins.jsonl
"""

from __future__ import annotations

import hashlib
import importlib
import io
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from PIL import Image

import games
from tests.render.language_samples import NAMES_EN, NAMES_RU

FILE = Path(__file__).with_name("pixel_pins.jsonl")
LANGUAGES = ("ru", "en")

# (game, players, options, seed); seed 3 has seat 2 leave at its 60th step.
GAMES: list[tuple[str, int, dict[str, Any] | None, int]] = [
    ("cell_capture", 3, None, 1),
    ("cell_capture", 6, None, 3),
    ("dominas", 2, None, 1),
    ("dominas", 6, {"mode": "teams"}, 2),
    ("dominas", 8, None, 3),
    ("hypnosia", 2, None, 1),
    ("hypnosia", 6, None, 3),
    ("sea_cross", 2, None, 1),
    ("sea_cross", 4, None, 3),
    ("seven_tracks", 2, None, 1),
    ("seven_tracks", 6, None, 3),
]

# The names of the synthetic «Семидорожник» samples (their ids are 101…106).
ST_NAMES_EN: dict[int, str] = {
    101: "Anna",
    102: "Boris",
    103: "Veronica",
    104: "Gregory Constantinopolitan",
    105: "Dima",
}


def names(language: str, ids: str = "seeded") -> dict[int, str]:
    if ids == "samples":
        from tests.render.seven_tracks_samples import NAMES

        return dict(NAMES) if language == "ru" else dict(ST_NAMES_EN)
    return dict(NAMES_RU) if language == "ru" else dict(NAMES_EN)


def _phase(view: Any) -> str:
    phase = getattr(view, "phase", None)
    return str(getattr(phase, "value", phase))


def seeded_views(
    game_id: str, players: int, options: dict[str, Any] | None, seed: int
) -> list[Any]:
    """Views of a seeded random game: the first of each phase (after a few steps), a third
    and two thirds through it, and the last."""
    game = games.get(game_id)
    rng = random.Random(seed)
    s = game.new(list(range(1, players + 1)), seed=seed, options=options)
    history = [s]
    while not game.is_over(s) and len(history) < 4000:
        if seed == 3 and len(history) == 60:
            s, _ = game.remove(s, 2)
        else:
            s, _ = game.apply(s, rng.choice(game.legal_actions(s)))
        history.append(s)
    picked: dict[int, None] = {}
    seen: set[str] = set()
    for i, state in enumerate(history):
        phase = _phase(game.view(state, None))
        if i >= 5 and phase not in seen:
            seen.add(phase)
            picked[i] = None
    n = len(history) - 1
    for i in (n // 3, 2 * n // 3, n):
        picked[i] = None
    return [game.view(history[i], None) for i in sorted(picked)]


def pixel_hash(im: Image.Image) -> str:
    """The hash of a picture's RGB pixels and its size."""
    rgb = im.convert("RGB")
    return f"{hashlib.sha1(rgb.tobytes()).hexdigest()}-{rgb.width}x{rgb.height}"


def png_hash(png: bytes) -> str:
    """`pixel_hash` of a PNG's decoded pixels (the compressor does not count)."""
    with Image.open(io.BytesIO(png)) as im:
        assert im.format == "PNG"
        return pixel_hash(im)


def renderer(game_id: str) -> Any:
    return importlib.import_module(f"render.{game_id}")


def draw_rgb(game_id: str) -> Any:
    """The renderer's picture drawn whole in RGB: `draw_rgb`, or `draw` where that is what
    it draws."""
    module = renderer(game_id)
    return getattr(module, "draw_rgb", None) or module.draw


def board_pictures(game_id: str, view: Any, ids: str = "seeded") -> dict[str, str]:
    """The hashes a board case pins: the PNG in each language (for «Семидорожник» the
    picture assembled on the palette), and the picture drawn whole in RGB before it is
    mapped onto the palette."""
    module = renderer(game_id)
    out: dict[str, str] = {}
    for language in LANGUAGES:
        who = names(language, ids)
        out[language] = png_hash(module.render(view, who, language=language))
        rgb = draw_rgb(game_id)(view, who, language=language)
        assert rgb.mode == "RGB"
        out[f"{language}_rgb"] = pixel_hash(rgb)
    return out


def seven_tracks_samples() -> dict[str, Any]:
    from tests.render.seven_tracks_samples import samples

    return samples()


def other_pictures() -> dict[str, Callable[[], bytes]]:
    """Pictures besides the boards: hands and a replay's last frame, in both languages."""
    from render import animation, hands

    tiles = [("О1", True), ("З2", False), ("М5", True), ("В21", False), ("О⚙", False)]
    kinds = ["R", "R", "W", "U", "K", "V", "SK", "PV", "OP", "RS", "FM", "EX", "G"]
    out: dict[str, Callable[[], bytes]] = {"hand-dominas": lambda: hands.dominas_hand(tiles)}
    for language in LANGUAGES:

        def hand(lang: str = language) -> bytes:
            return hands.seven_tracks_hand(kinds, lang)

        out[f"hand-seven_tracks-{language}"] = hand

        def standings(lang: str = language) -> bytes:
            frame = animation.standings_frame(
                (480, 330),
                [(2, 1, 144), (1, 2, 97), (3, 3, 12)],
                names(lang),
                lang,
                "Семидорожник" if lang == "ru" else "Seven Tracks",
            )
            buf = io.BytesIO()
            frame.save(buf, format="PNG")
            return buf.getvalue()

        out[f"standings-{language}"] = standings
    return out


def cases() -> Iterator[tuple[str, Any]]:
    """(game id, view) of every seeded case, in the file's order."""
    for game_id, players, options, seed in GAMES:
        for view in seeded_views(game_id, players, options, seed):
            yield game_id, view


def load() -> tuple[list[tuple[str, Any, dict[str, str]]], dict[str, dict[str, str]]]:
    """The stored board cases (game id, view, hashes) and the other pins by name."""
    boards: list[tuple[str, Any, dict[str, str]]] = []
    other: dict[str, dict[str, str]] = {}
    for line in FILE.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        if "view" in case:
            model: Any = importlib.import_module(f"games.{case['game']}.model")
            boards.append((case["game"], model.View.model_validate(case["view"]), case["pixels"]))
        else:
            other[case["name"]] = case["pixels"]
    return boards, other


def write() -> None:
    lines = []
    for game_id, view in cases():
        case = {
            "game": game_id,
            "pixels": board_pictures(game_id, view),
            "view": json.loads(view.model_dump_json()),
        }
        lines.append(json.dumps(case, ensure_ascii=False, separators=(",", ":")))
    for name, view in seven_tracks_samples().items():
        pins = board_pictures("seven_tracks", view, "samples")
        lines.append(json.dumps({"name": f"seven_tracks-{name}", "pixels": pins}))
    for name, make in other_pictures().items():
        lines.append(json.dumps({"name": name, "pixels": {"png": png_hash(make())}}))
    FILE.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write()
