"""PNG compressors on our real pictures: time and size per game and level, beside zlib.

    python -m bench.compressors [--states N] [--repeat R]

What chose `render/deflate.py`'s compressor. For every game, `N` mid-game pictures (as in
`bench/render.py`) are mapped onto the game's palette, and their PNG image data (what
`render.png.encode_indexed_png` compresses) is compressed `R` times by each compressor
that imports: Python's `zlib` (the baseline, in the same run), ISA-L (`isal.isal_zlib`, a
dependency) and zlib-ng (`zlib_ng.zlib_ng`, not a dependency: `pip install zlib-ng` to
measure it), all with a 32 KB window and memLevel 8, at the levels that make sense for
pictures sent at once (zlib's 1–3: the bot uses 2; ISA-L has only 0–3). Every output is
checked to inflate to the input.
"""

from __future__ import annotations

import argparse
import importlib
import time
import zlib
from collections.abc import Callable
from types import ModuleType

from PIL import Image

from bench.render import Renderer, mid_game_views, renderers
from bench.report import table
from bench.stats import median
from render.deflate import MEM_LEVEL
from render.png import png_scanlines

CANDIDATES: list[tuple[str, str, tuple[int, ...]]] = [
    ("zlib", "zlib", (1, 2, 3)),
    ("isal", "isal.isal_zlib", (0, 1, 2, 3)),
    ("zlib-ng", "zlib_ng.zlib_ng", (1, 2, 3, 4)),
]
BASELINE = ("zlib", 2)  # what the pictures used before render/deflate.py


def available() -> list[tuple[str, ModuleType, tuple[int, ...]]]:
    out = []
    for name, module, levels in CANDIDATES:
        try:
            out.append((name, importlib.import_module(module), levels))
        except ImportError:
            print(f"{name}: not installed ({module}), not measured")
    return out


def indexed_data(r: Renderer, n_states: int) -> list[bytes]:
    """The PNG image data of `n_states` mid-game pictures, on the game's fixed palette."""
    module = importlib.import_module(f"render.{r.game_id}")
    r.warm_up()
    out = []
    for view, names in mid_game_views(r.game_id, r.players, n_states):
        img = r.draw(view, names)
        if img.mode != "P":
            img = img.convert("RGB").quantize(palette=module.palette(), dither=Image.Dither.NONE)
        out.append(png_scanlines(img))
    return out


def measure(
    compress: Callable[[bytes], bytes], data: list[bytes], repeat: int
) -> tuple[float, float]:
    """Median seconds and mean bytes of compressing each of `data`, `repeat` times."""
    times: list[float] = []
    sizes: list[int] = []
    for _ in range(repeat):
        for raw in data:
            t0 = time.perf_counter()
            out = compress(raw)
            times.append(time.perf_counter() - t0)
            sizes.append(len(out))
            assert zlib.decompress(out) == raw
    return median(times), sum(sizes) / len(sizes)


def run(n_states: int = 6, repeat: int = 5) -> str:
    libs = available()
    rows = []
    for r in renderers():
        data = indexed_data(r, n_states)
        results: dict[tuple[str, int], tuple[float, float]] = {}
        for name, lib, levels in libs:
            for level in levels:

                def compress(raw: bytes, lib: ModuleType = lib, level: int = level) -> bytes:
                    co = lib.compressobj(level, zlib.DEFLATED, 15, MEM_LEVEL)
                    out: bytes = co.compress(raw) + co.flush()
                    return out

                results[(name, level)] = measure(compress, data, repeat)
        base_t, base_b = results[BASELINE]
        for (name, level), (t, b) in results.items():
            rows.append(
                [
                    r.game_id,
                    f"{len(data[0]) / 1e6:.2f} MB",
                    f"{name} {level}",
                    f"{t * 1e3:.2f}",
                    f"{base_t / t:.1f} ×",
                    f"{b / 1024:.1f}",
                    f"{b / base_b - 1:+.1%}",
                ]
            )
    head = ["game", "raw", "compressor", "p50 ms", "speed vs zlib 2", "KB", "bytes vs zlib 2"]
    return "PNG compressors on mid-game pictures (baseline: zlib level 2, same run)\n" + table(
        head, rows
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--states", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(run(args.states, args.repeat))


if __name__ == "__main__":
    main()
