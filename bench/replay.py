"""`/replay` animations: time to draw one and its size, per game, beside the table's own
pictures of the same positions.

    python -m bench.replay [--seed S] [--save DIR]

For every game one random full game (random legal play from seed `S`) is recorded as
its steps, then drawn as the bot draws a replay (bot/memory/replay.py: its jobs — the
game walked twice, the palette, a job per frame, the GIF — here in this process, one
after the other). The baseline in the same run: the same boards drawn and encoded as
the table's PNG pictures (`render/<game>.py` `render`), which the table would have sent
for those positions.
`--save DIR` keeps each GIF as DIR/<game>.gif.

Beside them, the game's hot record at its end (the JSON read and compare-and-set at
every press): with its steps inside, as before they moved to a list of their own, and
as it is stored now (bot/storage/base.py `moved_steps`).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from pathlib import Path

import games
from bench.render import NAMES
from bench.report import table
from bot.memory import replay
from bot.presenters import registry
from bot.storage.base import GameRecord, moved_steps
from bot.warm_up import renderer
from games.replay import states
from locales import get_translator
from render import animation

PLAYERS = {"seven_tracks": 4, "cell_capture": 3, "sea_cross": 2, "hypnosia": 4, "dominas": 4}


def recorded(game_id: str, players: int, seed: int) -> tuple[list[str], list[int]]:
    """The steps of a random full game (the `new` call first, as the memory keeps them)."""
    import json

    game = games.get(game_id)
    ids = list(range(1, players + 1))
    rng = random.Random(seed)
    s = game.new(ids, seed=seed)
    steps = ["~n" + json.dumps({"players": ids, "seed": seed, "options": None})]
    while not game.is_over(s) and len(steps) < 5000:
        a = rng.choice(game.legal_actions(s))
        steps.append(game.encode_action(a))
        s, _ = game.apply(s, a)
    return steps, ids


def report(seed: int = 1, save: Path | None = None) -> str:
    """The table of every game's replay (`python -m bench` prints it too)."""
    presenters = registry()
    rows: list[list[str]] = []
    for game_id, p in presenters.items():
        n = PLAYERS.get(game_id, max(2, p.min_players))
        steps, ids = recorded(game_id, n, seed)
        names = {i: NAMES[i - 1] for i in ids}
        game = games.get(game_id)
        final = list(states(game_id, ids, seed, None, steps[1:]))[-1]
        standings = [(s.player, s.place, s.score) for s in game.result(final).standings]
        title = get_translator("ru")(p.title_key)
        t0 = time.perf_counter()
        shown = asyncio.run(replay.animate(replay.inline, p, steps, standings, names, "ru", title))
        took = time.perf_counter() - t0
        data, positions = shown.data, shown.positions
        views = replay.views(p, steps)
        boards = [views[i] for i in animation.sample(len(views))]
        module = renderer(game_id)
        assert module is not None
        t0 = time.perf_counter()
        pngs = [module.render(v, names, language="ru") for v in boards]
        base = time.perf_counter() - t0
        frames = animation.frame_count(data)
        rec = GameRecord(
            chat_id=-1,
            uid="bench",
            game_id=game_id,
            creator=1,
            players=ids,
            names=names,
            state=final.model_dump_json(),
            steps=steps,
        )
        inside, now = len(rec.model_dump_json()), len(moved_steps(rec)[0].model_dump_json())
        seconds = shown.seconds
        rows.append(
            [
                game_id,
                str(len(steps) - 1),
                str(positions),
                str(frames),
                f"{seconds:.0f} s",
                f"{took:.2f} s",
                f"{len(data) / 1e6:.2f} MB",
                f"{base:.2f} s",
                f"{sum(map(len, pngs)) / 1e6:.2f} MB",
                f"{inside / 1e3:.1f} KB",
                f"{now / 1e3:.1f} KB",
            ]
        )
        if save is not None:
            save.mkdir(parents=True, exist_ok=True)
            (save / f"{game_id}.gif").write_bytes(data)
    head = [
        "game",
        "steps",
        "positions",
        "frames",
        "plays",
        "replay: draw",
        "GIF",
        "baseline: PNGs",
        "PNG total",
        "record: steps inside",
        "steps out",
    ]
    return table(head, rows)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--save", type=Path, default=None)
    args = ap.parse_args()
    print(report(args.seed, args.save))


if __name__ == "__main__":
    main()
