"""Board pictures: time to render a mid-game state, beside the time to only encode it.

    python -m bench.render [--states N] [--repeat R]

For every game with a renderer, `N` mid-game states (random legal play from different
seeds, stopped half-way through a game) are each rendered once, as the bot does (every
move makes a new state: caches keyed by a state's contents are cold, the renderer's
warmed-up caches are not), then drawn and encoded `R` times each. The
baseline in the same run is the floor: encoding the same finished picture from its
pixels (RGB put on the game's palette, then compressed, as the pictures were before the
compositor assembled them on the palette) and Pillow alone, without drawing anything.

The PNG compressor is the one the bot uses (`render/deflate.py`: ISA-L when installed;
`RENDER_ZLIB=zlib` forces the standard zlib). Beside it, in the same run, the standard
zlib: every other state is rendered with it (2N states in all, so each compressor draws
N states cold), and every encode-only is repeated with it on the same picture.
"""

from __future__ import annotations

import argparse
import io
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PIL import Image

import games
from bench.stats import median, pct
from render import deflate


@dataclass
class Renderer:
    game_id: str
    players: int
    draw: Callable[[Any, dict[int, str]], Image.Image]
    draw_rgb: Callable[[Any, dict[int, str]], Image.Image]
    encode: Callable[[Image.Image], bytes]
    render: Callable[[Any, dict[int, str]], bytes]
    warm_up: Callable[[], None]


def renderers() -> list[Renderer]:
    """Every registered game that has a `render/<id>.py` (draw, render; encode and
    warm_up where the module has them), with 4 players (fewer if the game allows)."""
    import importlib

    from render.png import encode_png

    out: list[Renderer] = []
    for game_id in games.ids():
        try:
            module = importlib.import_module(f"render.{game_id}")
        except ImportError:
            continue
        if not hasattr(module, "draw") or not hasattr(module, "render"):
            continue
        game = games.get(game_id)
        players = max(int(getattr(game, "min_players", 2)), 2)
        players = min(4, int(getattr(game, "max_players", 4))) if players <= 4 else players
        out.append(
            Renderer(
                game_id,
                players,
                module.draw,
                getattr(module, "draw_rgb", module.draw),
                getattr(module, "encode", encode_png),
                module.render,
                getattr(module, "warm_up", lambda: None),
            )
        )
    return out


NAMES = ["Аня", "Борис", "Вика", "Гоша", "Даша", "Егор"]


def mid_game_views(game_id: str, players: int, n: int) -> list[tuple[Any, dict[int, str]]]:
    """`n` public views half-way through random games (different seeds)."""
    game = games.get(game_id)
    return [(game.view(s, None), names) for s, names in mid_game_states(game_id, players, n)]


def mid_game_states(game_id: str, players: int, n: int) -> list[tuple[Any, dict[int, str]]]:
    """`n` states half-way through random games (different seeds), with the names."""
    game = games.get(game_id)
    ids = list(range(1, players + 1))
    names = {i: NAMES[i - 1] for i in ids}
    out: list[tuple[Any, dict[int, str]]] = []
    seed = 0
    while len(out) < n:
        seed += 1
        rng = random.Random(seed)
        history = [game.new(ids, seed=seed)]
        s = history[0]
        while not game.is_over(s) and len(history) < 4000:
            s, _ = game.apply(s, rng.choice(game.legal_actions(s)))
            history.append(s)
        out.append((history[len(history) // 2], names))
    return out


@dataclass
class RenderResult:
    game_id: str
    render_p50: float
    render_p95: float
    encode_p50: float
    encode_p95: float
    draw_p50: float
    plain_png_p50: float
    size_p50: int
    size_max: int
    width: int
    height: int
    first_render: float
    compressor: str  # the PNG compressor of the pictures (render/deflate.py)
    # the same with the standard zlib, in the same run (the baseline)
    zlib_render_p50: float
    zlib_render_p95: float
    zlib_encode_p50: float
    zlib_size_p50: int
    zlib_size_max: int

    @property
    def ratio(self) -> float:
        return self.render_p50 / self.encode_p50


def bench_one(r: Renderer, n_states: int, repeat: int) -> RenderResult:
    views = mid_game_views(r.game_id, r.players, 2 * n_states)
    t0 = time.perf_counter()
    r.render(*views[0])  # the first picture after start: caches cold unless warmed up
    first = time.perf_counter() - t0
    r.warm_up()
    compressor = deflate.current().name
    renders: list[float] = []
    zlib_renders: list[float] = []
    encodes: list[float] = []
    zlib_encodes: list[float] = []
    zlib_sizes: list[int] = []
    draws: list[float] = []
    plain: list[float] = []
    sizes: list[int] = []
    w = h = 0
    for i, (view, names) in enumerate(views):
        # A bot draws every state once (each move makes a new one), so `render` is the
        # first picture of each state; draw and encode-only are repeated on it. Every
        # other state is the baseline's: rendered with the standard zlib.
        if i % 2:
            with deflate.using("zlib"):
                t0 = time.perf_counter()
                r.render(view, names)
                zlib_renders.append(time.perf_counter() - t0)
            continue
        t0 = time.perf_counter()
        png = r.render(view, names)
        renders.append(time.perf_counter() - t0)
        sizes.append(len(png))
        # The floor is the finished picture's pixels (RGB) put on the palette and
        # compressed: what any pixel pipeline pays to encode it. A compositor that
        # assembles on the palette (`draw`) skips the mapping, so encoding its own "P"
        # image would be a lower floor than the one the target was set against.
        img = r.draw_rgb(view, names)
        w, h = img.size
        for k in range(repeat):
            t0 = time.perf_counter()
            r.draw(view, names)
            draws.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            r.encode(img)
            encodes.append(time.perf_counter() - t0)
            with deflate.using("zlib"):
                t0 = time.perf_counter()
                plain_png = r.encode(img)
                zlib_encodes.append(time.perf_counter() - t0)
            if k == 0:
                zlib_sizes.append(len(plain_png))
            t0 = time.perf_counter()
            buf = io.BytesIO()
            img.save(buf, format="PNG", compress_level=6)
            plain.append(time.perf_counter() - t0)
    return RenderResult(
        game_id=r.game_id,
        render_p50=median(renders),
        render_p95=pct(renders, 0.95),
        encode_p50=median(encodes),
        encode_p95=pct(encodes, 0.95),
        draw_p50=median(draws),
        plain_png_p50=median(plain),
        size_p50=int(median([float(x) for x in sizes])),
        size_max=max(sizes),
        width=w,
        height=h,
        first_render=first,
        compressor=compressor,
        zlib_render_p50=median(zlib_renders),
        zlib_render_p95=pct(zlib_renders, 0.95),
        zlib_encode_p50=median(zlib_encodes),
        zlib_size_p50=int(median([float(x) for x in zlib_sizes])),
        zlib_size_max=max(zlib_sizes),
    )


def run(n_states: int = 20, repeat: int = 3) -> list[RenderResult]:
    return [bench_one(r, n_states, repeat) for r in renderers()]


def save_samples(directory: str) -> list[str]:
    """Write one mid-game picture per game (and its phone-size preview) for looking at."""
    from pathlib import Path

    out: list[str] = []
    Path(directory).mkdir(parents=True, exist_ok=True)
    for r in renderers():
        view, names = mid_game_views(r.game_id, r.players, 1)[0]
        png = r.render(view, names)
        path = Path(directory) / f"{r.game_id}.png"
        path.write_bytes(png)
        img = Image.open(io.BytesIO(png)).convert("RGB")
        small = img.resize((360, round(img.height * 360 / img.width)), Image.Resampling.LANCZOS)
        small.save(Path(directory) / f"{r.game_id}_360.png")
        out.append(str(path))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--states", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--save", default=None, help="write sample pictures to this directory")
    args = parser.parse_args()
    from bench.report import render_table

    print(render_table(run(args.states, args.repeat)))
    if args.save:
        print("\n".join(save_samples(args.save)))


if __name__ == "__main__":
    main()
